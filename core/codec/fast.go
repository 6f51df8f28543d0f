package codec

import (
	"unicode/utf8"

	"github.com/noggin-go/noggin/core/noggin"
)

func decodeRune(b []byte) (rune, int) { return utf8.DecodeRune(b) }

// decodeFast is the purpose-built reader (see fastread.go); ok is false
// when the input must go to the general parser.
func decodeFast(data []byte) (*noggin.Document, bool) { return nil, false }
