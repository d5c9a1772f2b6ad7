package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// writeOutput writes a report to the file path through write. It writes a
// new file beside path and renames it over path only once it is complete,
// so that a failure (a full disk, a report that cannot be rendered) leaves
// an earlier report at path as it was rather than cut short or empty.
//
// A path that exists and is not a regular file (a terminal, a pipe,
// /dev/stdout) cannot be replaced, and is written directly.
func writeOutput(path string, write func(io.Writer) error) error {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p // replace the file a link points to, not the link
	}
	mode := fs.FileMode(0)
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return writeDirect(path, write)
		}
		mode = st.Mode().Perm()
	}
	tmp, err := createBeside(path)
	if err != nil {
		return err
	}
	err = write(tmp)
	if err == nil && mode != 0 {
		err = tmp.Chmod(mode) // keep the mode of the report it replaces
	}
	if err == nil {
		err = tmp.Sync() // so that a crash after the rename does not leave it empty
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// createBeside creates a new, empty file in the directory of path, with
// the permissions os.Create would give path (0666 less the umask).
func createBeside(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%08x.tmp", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// Name the file asked for: the temporary name means nothing to
			// the user, and the cause (no such directory, no permission)
			// is the same.
			return nil, &fs.PathError{Op: "create", Path: path, Err: pe.Err}
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
}

func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
