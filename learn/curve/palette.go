package curve

import "image/color"

// palette holds distinguishable line colours (Okabe–Ito).
var palette = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff},
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff},
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xff},
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xff},
}
