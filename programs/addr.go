package programs

import (
	"strconv"
	"strings"
)

// Addresses spelled other ways (issue 19, blind class metadata): the C
// resolver reads 2852039166, 0xa9fea9fe, 0251.0376.0251.0376 and
// 169.254.43518 as 169.254.169.254, IPv6 carries it mapped
// (::ffff:169.254.169.254, ::ffff:a9fe:a9fe), and wildcard DNS services
// answer a name that spells it (169.254.169.254.nip.io,
// 169-254-169-254.sslip.io). By hand: the hook imports no net package.

// IPv4 is the address a host names as the C resolver (inet_aton) reads
// it: one to four parts, each decimal, octal (a leading 0) or hex (0x),
// the last filling the bytes left; or an IPv4-mapped IPv6 address.
func IPv4(host string) (uint32, bool) {
	h := strings.ToLower(strings.Trim(strings.TrimSpace(host), "[]"))
	if rest, ok := strings.CutPrefix(h, "::ffff:"); ok {
		if v, ok := IPv4(rest); ok && strings.Contains(rest, ".") {
			return v, true
		}
		if hi, lo, ok := strings.Cut(rest, ":"); ok {
			a, e1 := strconv.ParseUint(hi, 16, 16)
			b, e2 := strconv.ParseUint(lo, 16, 16)
			if e1 == nil && e2 == nil {
				return uint32(a<<16 | b), true
			}
		}
		return 0, false
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 || h == "" {
		return 0, false
	}
	var v uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32) // base 0: 0x hex, leading 0 octal
		if err != nil || p == "" {
			return 0, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return 0, false
			}
			v = v<<8 | n
			continue
		}
		left := uint(4 - i) // bytes the last part fills
		if n >= 1<<(8*left) {
			return 0, false
		}
		v = v<<(8*left) | n
	}
	return uint32(v), true
}

// wildcardDNS are services whose names resolve to the address they spell.
var wildcardDNS = []string{".nip.io", ".sslip.io", ".xip.io", ".nip.direct", ".traefik.me", ".localtest.me", ".lvh.me"}

// SpelledIPv4 is the address a wildcard DNS name spells (its labels
// before the service's domain, dotted, dashed or in hex: 10.0.0.1.nip.io,
// app-10-0-0-1.sslip.io, 0a000001.nip.io), or the host's own (IPv4).
func SpelledIPv4(host string) (uint32, bool) {
	if v, ok := IPv4(host); ok {
		return v, true
	}
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	for _, d := range wildcardDNS {
		rest, ok := strings.CutSuffix(h, d)
		if !ok {
			continue
		}
		labels := strings.Split(rest, ".")
		if len(labels) >= 4 {
			if v, ok := IPv4(strings.Join(labels[len(labels)-4:], ".")); ok {
				return v, true
			}
		}
		last := labels[len(labels)-1]
		if f := strings.Split(last, "-"); len(f) >= 4 {
			if v, ok := IPv4(strings.Join(f[len(f)-4:], ".")); ok {
				return v, true
			}
		}
		if len(last) == 8 {
			if n, err := strconv.ParseUint(last, 16, 32); err == nil {
				return uint32(n), true
			}
		}
	}
	return 0, false
}
