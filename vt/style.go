package vt

// Color is a terminal colour: 0 is the default, 1..256 are palette index+1,
// and values with bit 24 set are 24-bit RGB (0x1RRGGBB).
type Color uint32

// Style is a cell's rendition.
type Style struct {
	FG, BG                                Color
	Bold, Dim, Italic, Underline, Reverse bool
}
