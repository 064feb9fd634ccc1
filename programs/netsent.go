package programs

import "strings"

// What a network sender is given to send, by its option grammar: the
// values that are a credential (a password, a token header) and the
// values that are its body. A literal credential there goes to the host
// (judged in judge/credliteral.go).

// sendOpts are a sender's options whose value is a credential (cred) or
// its body (data), short letters and long names.
type sendOpts struct {
	credShort, dataShort string
	credLong, dataLong   []string
	headerShort          string // the options whose value is a header (Name: value)
	headerLong           []string
}

var senders = map[string]sendOpts{
	"curl": {credShort: "uU", dataShort: "dF", headerShort: "H",
		credLong:   []string{"user", "proxy-user", "oauth2-bearer", "pass"},
		dataLong:   []string{"data", "data-binary", "data-raw", "data-ascii", "data-urlencode", "json", "form", "form-string", "url-query"},
		headerLong: []string{"header", "proxy-header"}},
	"wget": {credLong: []string{"user", "password", "http-user", "http-password", "ftp-user", "ftp-password", "proxy-user", "proxy-password"},
		dataLong: []string{"post-data", "body-data"}, headerLong: []string{"header"}},
	"http": {credShort: "a", credLong: []string{"auth"}},
}

// SentValues are the credential and body values args give a sender (the
// password of every URL's user info among the credentials); nil for a
// program whose grammar is not known here.
func SentValues(name string, args []string) (creds, data []string) {
	p := Lookup(name)
	if p == nil || !p.Is(NetSender) {
		return nil, nil
	}
	for _, a := range args {
		if pw := urlPassword(a); pw != "" {
			creds = append(creds, pw)
		}
	}
	s, ok := senders[p.Name]
	if !ok {
		return creds, nil
	}
	header := func(v string) {
		n, val, ok := strings.Cut(v, ":")
		if !ok {
			return
		}
		n = strings.ToLower(strings.TrimSpace(n))
		for _, w := range []string{"auth", "key", "token", "secret", "password", "cookie", "session"} {
			if strings.Contains(n, w) {
				creds = append(creds, strings.TrimSpace(val))
				return
			}
		}
		data = append(data, val)
	}
	put := func(short byte, long, v string) {
		switch {
		case short != 0 && strings.IndexByte(s.credShort, short) >= 0, long != "" && has(s.credLong, long):
			if _, pw, ok := strings.Cut(v, ":"); ok && (long == "user" || long == "proxy-user" || short == 'u' || short == 'U' || long == "auth" || short == 'a') {
				v = pw // USER:PASSWORD: the password
			}
			creds = append(creds, v)
		case short != 0 && strings.IndexByte(s.dataShort, short) >= 0, long != "" && has(s.dataLong, long):
			data = append(data, v)
		case short != 0 && strings.IndexByte(s.headerShort, short) >= 0, long != "" && has(s.headerLong, long):
			header(v)
		}
	}
	shortTakes := s.credShort + s.dataShort + s.headerShort
	if p.Opts.Short != "" {
		shortTakes += p.Opts.Short
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return creds, data
		case strings.HasPrefix(a, "--"):
			n, v, eq := strings.Cut(a[2:], "=")
			if !eq {
				if !has(s.credLong, n) && !has(s.dataLong, n) && !has(s.headerLong, n) || i+1 >= len(args) {
					continue
				}
				i++
				v = args[i]
			}
			put(0, n, v)
		case len(a) > 1 && a[0] == '-':
			for k := 1; k < len(a); k++ {
				c := a[k]
				if strings.IndexByte(shortTakes, c) < 0 {
					continue
				}
				v := a[k+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				put(c, "", v)
				break
			}
		}
	}
	return creds, data
}

// urlPassword is the password of a URL's user info
// (scheme://user:password@host), "" when it has none.
func urlPassword(a string) string {
	k := strings.Index(a, "://")
	if k <= 0 {
		return ""
	}
	rest := a[k+3:]
	if e := strings.IndexAny(rest, "/?#"); e >= 0 {
		rest = rest[:e]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pw, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return ""
	}
	return pw
}
