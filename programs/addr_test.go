package programs

import "testing"

func TestSpelledIPv4(t *testing.T) {
	const md = 169<<24 | 254<<16 | 169<<8 | 254
	for _, h := range []string{"169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "169.254.43518",
		"0xa9.0xfe.0xa9.0xfe", "::ffff:169.254.169.254", "[::ffff:a9fe:a9fe]", "169.254.169.254.nip.io",
		"app-169-254-169-254.sslip.io", "a9fea9fe.nip.io"} {
		if v, ok := SpelledIPv4(h); !ok || v != md {
			t.Errorf("SpelledIPv4(%q) = %x, %v; want a9fea9fe", h, v, ok)
		}
	}
	for _, h := range []string{"example.com", "169.254.169.2544", "1.2.3.4.5", "nip.io", "10.0.0.1.nip.io.evil.com", "256.1.1.1", ""} {
		if v, ok := SpelledIPv4(h); ok && v == md {
			t.Errorf("SpelledIPv4(%q) = metadata; want not", h)
		}
	}
}
