package census

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPageRenders renders the page in headless Chromium (Debian's chromium
// package) through scripts/census-screenshot.sh and checks that the
// screenshot is a real picture: big enough, and not a single colour.
func TestPageRenders(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Skip("/usr/bin/chromium not installed (apt-get install chromium): the page's rendering is not checked")
	}
	if testing.Short() {
		t.Skip("-short: not starting Chromium")
	}
	r, _ := run(t, Options{TranscriptDirs: []string{formsDir}})
	dir := t.TempDir()
	page := filepath.Join(dir, "stops.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	shot := filepath.Join(dir, "stops.png")
	out, err := exec.Command("bash", "../scripts/census-screenshot.sh", page, shot).CombinedOutput()
	if err != nil {
		t.Fatalf("screenshot: %v\n%s", err, out)
	}
	pf, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	st, _ := pf.Stat()
	img, err := png.Decode(pf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 800 || st.Size() < 20_000 {
		t.Fatalf("screenshot too small: %v, %d bytes", b, st.Size())
	}
	if n := colours(img); n < 8 {
		t.Fatalf("screenshot has %d colours: the page did not render", n)
	}
}

// colours counts distinct colours on a grid of sample points (capped).
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) > 64 {
				return len(seen)
			}
		}
	}
	return len(seen)
}
