package caddymodule

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is when the file's inode last changed (st_ctim): any write,
// and any change of its times, moves it.
func changeTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return time.Time{}
}
