package host

import "context"

// Prepare compiles the module now, so that the first New does not pay for it.
func Prepare(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := shared.compile()
	return err
}
