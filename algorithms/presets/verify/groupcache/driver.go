// chbench verify-presets driver for "groupcache": the REAL groupcache consistenthash package
// from Debian's golang-github-golang-groupcache-dev, built in GOPATH mode:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o DRIVER driver.go
//
// usage: DRIVER PKG_VERSION CONFIGS_TSV KEYS_TXT OUT_DIR
// For every configs.tsv row whose system column is "groupcache": m := consistenthash.New(50, nil)
// (nil = crc32.ChecksumIEEE; 50 = groupcache's HTTPPool defaultReplicas), m.Add(all servers) in
// one call, and OUT_DIR/<stem>.tsv gets m.Get(key) for every key of keys.txt.
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/golang/groupcache/consistenthash"
)

const replicas = 50

func fail(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "groupcache/driver: "+format+"\n", a...)
	os.Exit(1)
}

func readLines(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func main() {
	if len(os.Args) != 5 {
		fail("usage: driver PKG_VERSION CONFIGS_TSV KEYS_TXT OUT_DIR")
	}
	pkgVersion, configsPath, keysPath, outDir := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	keys := readLines(keysPath)

	var header []string
	rows := 0
	for _, line := range readLines(configsPath) {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if header == nil {
			header = f
			continue
		}
		r := map[string]string{}
		for i, h := range header {
			if i < len(f) {
				r[h] = f[i]
			}
		}
		if r["system"] != "groupcache" {
			continue
		}
		rows++
		if r["options"] != "" {
			fail("%s: unexpected options %q", r["stem"], r["options"])
		}
		servers := strings.Split(r["servers"], ",")
		valid := map[string]bool{}
		for _, s := range servers {
			valid[s] = true
		}

		m := consistenthash.New(replicas, nil)
		m.Add(servers...)

		tmp := filepath.Join(outDir, r["stem"]+".tsv.part")
		fh, err := os.Create(tmp)
		if err != nil {
			fail("%v", err)
		}
		w := bufio.NewWriter(fh)
		fmt.Fprintf(w, "# groupcache consistenthash (Debian golang-github-golang-groupcache-dev %s, %s); "+
			"New(%d, nil=crc32.ChecksumIEEE); Add(%s) in one call; lookup=Map.Get(); key<TAB>peer\n",
			pkgVersion, runtime.Version(), replicas, strings.Join(servers, ", "))
		for _, k := range keys {
			p := m.Get(k)
			if !valid[p] {
				fail("%s: key %q mapped to unknown peer %q", r["stem"], k, p)
			}
			fmt.Fprintf(w, "%s\t%s\n", k, p)
		}
		if err := w.Flush(); err != nil {
			fail("%v", err)
		}
		if err := fh.Close(); err != nil {
			fail("%v", err)
		}
		if err := os.Rename(tmp, filepath.Join(outDir, r["stem"]+".tsv")); err != nil {
			fail("%v", err)
		}
	}
	if rows == 0 {
		fail("no configs.tsv rows with system \"groupcache\"")
	}
}
