package a2aclient

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// jsonText says what is wrong with a piece of JSON in words of JSON, not of Go: encoding/json
// names the Go types it decodes into ("cannot unmarshal object into Go struct field .0.schemes
// of type a2a.SecuritySchemeScopes"), which mean nothing to someone who wrote the JSON, least of
// all in JavaScript.
type jsonText struct{ err error }

// readableJSON wraps err so that its text is jsonText's; nil stays nil.
func readableJSON(err error) error {
	if err == nil {
		return nil
	}
	return &jsonText{err}
}

func (e *jsonText) Unwrap() error { return e.err }

func (e *jsonText) Error() string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(e.err, &typeErr):
		where := strings.Trim(typeErr.Field, ".")
		if where != "" {
			where = " at " + where
		}
		return "a JSON " + typeErr.Value + where + " where " + jsonKind(typeErr.Type) + " belongs"
	case errors.As(e.err, &syntaxErr):
		return "not valid JSON: " + strings.TrimPrefix(syntaxErr.Error(), "json: ")
	}
	return strings.TrimPrefix(e.err.Error(), "json: ")
}

// jsonKind is the JSON a Go type is decoded from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another value"
}
