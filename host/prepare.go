package host

import "context"

// Prepare compiles the given flavours now, so that the first New of each
// does not pay for it. With no flavour it prepares Full.
func Prepare(ctx context.Context, flavours ...Flavour) error {
	if len(flavours) == 0 {
		flavours = []Flavour{Full}
	}
	for _, f := range flavours {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := shared.compile(f); err != nil {
			return err
		}
	}
	return nil
}
