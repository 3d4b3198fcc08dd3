// Package unwrap finds an optional ability through a chain of wrappers,
// each of which has Unwrap() returning the value it wraps: a terminal
// under a recording tee (ptyhost.As), a transcript under the recording
// of its reads (transcript.As). A wrapper then never hides what the value
// under it can do.
package unwrap

// As returns the first value in v's chain of wrappers that is a T.
func As[T, V any](v V) (T, bool) {
	for x := any(v); x != nil; {
		if t, ok := x.(T); ok {
			return t, true
		}
		w, ok := x.(interface{ Unwrap() V })
		if !ok {
			break
		}
		x = w.Unwrap()
	}
	var zero T
	return zero, false
}

// All returns every value in v's chain of wrappers that is a T, outermost
// first: an ability more than one of them has (each hears of it).
func All[T, V any](v V) []T {
	var out []T
	for x := any(v); x != nil; {
		if t, ok := x.(T); ok {
			out = append(out, t)
		}
		w, ok := x.(interface{ Unwrap() V })
		if !ok {
			break
		}
		x = w.Unwrap()
	}
	return out
}
