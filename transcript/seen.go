package transcript

import "github.com/sentinel-guard/sentinel/internal/spill"

// Seen is what a reader knows of every tool_use id it met: a byte of flags
// per Key, so that a forked or resumed session's copied history counts
// once. It is exact at any size: past spill.DefaultCap ids it lives in a
// temporary SQLite file (internal/spill), so memory does not grow with the
// transcripts. A reader of another harness's files keeps its own Seen the
// same way: BeginFile, Flags and Set per event, EndFile, then Err and
// Close.
//
// Within a file the flags are kept in memory and written once at EndFile:
// a call and its result are usually in the same file, so the disk sees one
// read and one write per id and file instead of two each.
type Seen struct {
	m    *spill.Map[Key, uint8]
	file map[Key][2]uint8 // this file's ids: flags when first met here, flags now
}

// NewSeen returns an empty set.
func NewSeen() *Seen {
	return &Seen{m: spill.New[Key](spill.Byte), file: map[Key][2]uint8{}}
}

// BeginFile starts a file's events.
func (s *Seen) BeginFile() { clear(s.file) }

// Flags returns what is known of k (0: never seen).
func (s *Seen) Flags(k Key) uint8 {
	if f, ok := s.file[k]; ok {
		return f[1]
	}
	f, _ := s.m.Get(k)
	s.file[k] = [2]uint8{f, f}
	return f
}

// Set records k's flags (after Flags(k) in the same file).
func (s *Seen) Set(k Key, f uint8) {
	e, ok := s.file[k]
	if !ok {
		e[0], _ = s.m.Get(k)
	}
	e[1] = f
	s.file[k] = e
}

// EndFile writes the file's changed flags.
func (s *Seen) EndFile() {
	for k, e := range s.file {
		if e[0] != e[1] {
			s.m.Put(k, e[1])
		}
	}
	clear(s.file)
}

// Err is the first error of the disk form.
func (s *Seen) Err() error { return s.m.Err() }

// Close releases the temporary file.
func (s *Seen) Close() error { return s.m.Close() }
