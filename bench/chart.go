package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// chart draws the report as a log-log PNG: items against milliseconds for
// each verb, with the read and replace floors and the hello-world start.
func chart(r Report) ([]byte, error) {
	const w, h = 900, 560
	const left, right, top, bottom = 70, 190, 40, 50
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)

	minX, maxX := math.Log10(5), math.Log10(200000)
	lo, hi := math.Inf(1), math.Inf(-1)
	add := func(v float64) { lo, hi = math.Min(lo, v), math.Max(hi, v) }
	add(r.HelloWorld.WallMS)
	for _, s := range r.Sizes {
		add(s.ReadFloor.WallMS)
		add(s.ReplaceFloor.WallMS)
		for _, v := range s.Verbs {
			add(v.WallMS)
		}
	}
	minY, maxY := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if maxY-minY < 2 {
		maxY = minY + 2
	}
	px := func(items float64) int {
		return left + int((math.Log10(items)-minX)/(maxX-minX)*float64(w-left-right))
	}
	py := func(msv float64) int {
		return h - bottom - int((math.Log10(msv)-minY)/(maxY-minY)*float64(h-top-bottom))
	}
	grid := color.RGBA{225, 225, 225, 255}
	ink := color.RGBA{40, 40, 40, 255}
	for _, n := range []float64{10, 100, 1000, 10000, 100000} {
		line(img, px(n), top, px(n), h-bottom, grid, 1, false)
		label(img, px(n)-14, h-bottom+18, itemsLabel(n), ink)
	}
	for e := minY; e <= maxY; e++ {
		y := py(math.Pow(10, e))
		line(img, left, y, w-right, y, grid, 1, false)
		label(img, 8, y+4, msLabel(math.Pow(10, e)), ink)
	}
	line(img, left, top, left, h-bottom, ink, 1, false)
	line(img, left, h-bottom, w-right, h-bottom, ink, 1, false)
	label(img, left, 22, "noggin CLI, whole process, median wall time (log-log)", ink)
	label(img, (w-right)/2, h-12, "items", ink)

	series := []struct {
		name  string
		color color.RGBA
		dash  bool
		value func(SizeResult) float64
	}{
		{"show --json", color.RGBA{31, 119, 180, 255}, false, func(s SizeResult) float64 { return s.Verbs["show --json"].WallMS }},
		{"push", color.RGBA{214, 39, 40, 255}, false, func(s SizeResult) float64 { return s.Verbs["push"].WallMS }},
		{"note", color.RGBA{44, 160, 44, 255}, false, func(s SizeResult) float64 { return s.Verbs["note"].WallMS }},
		{"done", color.RGBA{148, 103, 189, 255}, false, func(s SizeResult) float64 { return s.Verbs["done"].WallMS }},
		{"floor: replace", color.RGBA{90, 90, 90, 255}, true, func(s SizeResult) float64 { return s.ReplaceFloor.WallMS }},
		{"floor: read", color.RGBA{125, 125, 125, 255}, true, func(s SizeResult) float64 { return s.ReadFloor.WallMS }},
		{"floor: hello-world", color.RGBA{160, 160, 160, 255}, true, func(SizeResult) float64 { return r.HelloWorld.WallMS }},
	}
	for i, s := range series {
		var prev image.Point
		for j, sz := range r.Sizes {
			p := image.Pt(px(float64(sz.Items)), py(s.value(sz)))
			if j > 0 {
				line(img, prev.X, prev.Y, p.X, p.Y, s.color, 2, s.dash)
			}
			if !s.dash {
				fill(img, image.Rect(p.X-3, p.Y-3, p.X+4, p.Y+4), s.color)
			}
			prev = p
		}
		ly := top + 20 + 22*i
		line(img, w-right+14, ly-4, w-right+44, ly-4, s.color, 2, s.dash)
		label(img, w-right+50, ly, s.name, ink)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func itemsLabel(n float64) string {
	switch {
	case n >= 1000:
		return fmt.Sprintf("%.0fk", n/1000)
	}
	return fmt.Sprintf("%.0f", n)
}

func msLabel(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.0f s", v/1000)
	case v >= 1:
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f ms", v)
}

func label(img *image.RGBA, x, y int, s string, c color.Color) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func fill(img *image.RGBA, r image.Rectangle, c color.Color) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// line draws a line of the given thickness, dashed if asked.
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.Color, width int, dashed bool) {
	dx, dy := float64(x1-x0), float64(y1-y0)
	steps := int(math.Max(math.Abs(dx), math.Abs(dy)))
	if steps == 0 {
		steps = 1
	}
	for i := 0; i <= steps; i++ {
		if dashed && (i/6)%2 == 1 {
			continue
		}
		x := x0 + int(math.Round(dx*float64(i)/float64(steps)))
		y := y0 + int(math.Round(dy*float64(i)/float64(steps)))
		fill(img, image.Rect(x-width/2, y-width/2, x-width/2+width, y-width/2+width), c)
	}
}
