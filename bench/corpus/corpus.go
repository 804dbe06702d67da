package corpus

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	cjson "github.com/graphwire/graphwire/codecs/json"
	"github.com/graphwire/graphwire/wire"
)

// Dir is the corpus directory, relative to the module root.
const Dir = "bench/corpus"

// ReferencePrefix starts the names of the GKG reference cases that Reference
// loads, so they never collide with generated ones.
const ReferencePrefix = "gkg_"

// Files returns the corpus as files: its relative, slash-separated path
// (Case.ID() + ".json", so "lean/traversal_s.json", or "name.json" for a
// case without a profile) → canonical JSON.
func Files(cases []Case) (map[string][]byte, error) {
	out := make(map[string][]byte, len(cases))
	for _, c := range cases {
		b, err := cjson.Encode(c.Response)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", c.ID(), err)
		}
		out[c.ID()+".json"] = b
	}
	return out, nil
}

// Write generates the corpus and writes one canonical-JSON file per case
// under dir, one subdirectory per profile (created if missing), replacing
// files of the same names. It returns the paths written (relative to dir,
// slash-separated, sorted), and those of the other *.json files in dir and
// its subdirectories, which are not part of the corpus and should be
// removed.
func Write(dir string) (written, stale []string, err error) {
	files, err := Files(Generate())
	if err != nil {
		return nil, nil, err
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, nil, fmt.Errorf("corpus: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, nil, fmt.Errorf("corpus: %w", err)
		}
		written = append(written, name)
	}
	sort.Strings(written)
	existing, err := jsonFiles(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range existing {
		if _, ok := files[f.rel]; !ok {
			stale = append(stale, f.rel)
		}
	}
	sort.Strings(stale)
	return written, stale, nil
}

type jsonFile struct {
	profile, name, rel, path string
}

// jsonFiles lists the *.json files directly in dir (no profile) and in its
// immediate subdirectories (the profile is the subdirectory's name).
func jsonFiles(dir string) ([]jsonFile, error) {
	var out []jsonFile
	for _, pattern := range []string{"*.json", filepath.Join("*", "*.json")} {
		paths, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		for _, p := range paths {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return nil, fmt.Errorf("corpus: %w", err)
			}
			rel = filepath.ToSlash(rel)
			profile, _, _ := strings.Cut(rel, "/")
			if profile == rel {
				profile = ""
			}
			out = append(out, jsonFile{profile, strings.TrimSuffix(filepath.Base(p), ".json"), rel, p})
		}
	}
	return out, nil
}

// Find returns the case of cases whose ID is id ("lean/traversal_m"), or
// false.
func Find(cases []Case, id string) (Case, bool) {
	i := slices.IndexFunc(cases, func(c Case) bool { return c.ID() == id })
	if i < 0 {
		return Case{}, false
	}
	return cases[i], true
}

// Sort puts cases in the order Load returns them: by profile (none first,
// then Profiles() in order, then any other by name), then by name. A corpus
// generated in memory, sorted, is the corpus Load reads from its files.
func Sort(cases []Case) {
	slices.SortStableFunc(cases, func(a, b Case) int { return compareCases(a.Profile, a.Name, b.Profile, b.Name) })
}

func compareCases(pa, na, pb, nb string) int {
	if ra, rb := profileRank(pa), profileRank(pb); ra != rb {
		return cmp.Compare(ra, rb)
	}
	if c := strings.Compare(pa, pb); c != 0 {
		return c
	}
	return strings.Compare(na, nb)
}

// profileRank orders profiles: none first, then Profiles() in order, then
// any other by name.
func profileRank(p string) int {
	if p == "" {
		return -1
	}
	for i, q := range Profiles() {
		if p == q {
			return i
		}
	}
	return len(Profiles())
}

// Load reads a corpus directory: every *.json file in dir is a case
// without a profile (a corpus of one's own), and every *.json file in an
// immediate subdirectory of dir a case of the profile the subdirectory
// names. The case name is the file name without ".json". Cases come
// without profile first, then by profile (Profiles() order, then other
// names sorted), then by name.
func Load(dir string) ([]Case, error) {
	files, err := jsonFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus: no *.json files in %s or its subdirectories", dir)
	}
	sort.Slice(files, func(i, j int) bool {
		a, b := files[i], files[j]
		return compareCases(a.profile, a.name, b.profile, b.name) < 0
	})
	out := make([]Case, 0, len(files))
	for _, f := range files {
		c, err := loadFile(f.path, f.name)
		if err != nil {
			return nil, err
		}
		c.Profile = f.profile
		out = append(out, c)
	}
	return out, nil
}

func loadFile(path, name string) (Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Case{}, fmt.Errorf("corpus: %w", err)
	}
	r, err := cjson.Decode(data)
	if err != nil {
		return Case{}, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return Case{Name: name, Response: r}, nil
}

// Reference loads GKG's reference inputs (the *.json files of the GOON
// reference cases) from dir, named ReferencePrefix + file name. They are
// measured beside the corpus when available but never committed with it.
func Reference(dir string) ([]Case, error) {
	if _, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("corpus: reference directory %s does not exist", dir)
		}
		return nil, fmt.Errorf("corpus: %w", err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	sort.Strings(paths)
	out := make([]Case, 0, len(paths))
	for _, p := range paths {
		c, err := loadFile(p, ReferencePrefix+strings.TrimSuffix(filepath.Base(p), ".json"))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Summary describes a response in a few words: its node counts by type,
// its edge count, and its row count with the distinct entities its rows
// group by, e.g. "200 MergeRequest, 50 User; 200 edges" or "no nodes; 0
// edges; 100 rows grouped by 100 User".
func Summary(r *wire.GraphResponse) string {
	counts := map[string]int{}
	var types []string
	for _, n := range r.Nodes {
		if counts[n.Type] == 0 {
			types = append(types, n.Type)
		}
		counts[n.Type]++
	}
	sort.Strings(types)
	var b bytes.Buffer
	for i, t := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s", counts[t], t)
	}
	if len(types) == 0 {
		b.WriteString("no nodes")
	}
	fmt.Fprintf(&b, "; %d edges", len(r.Edges))
	if r.Rows != nil {
		fmt.Fprintf(&b, "; %d rows", len(r.Rows))
		cells := map[string]map[int64]bool{}
		var cellTypes []string
		for _, row := range r.Rows {
			for _, c := range row {
				if c.Node == nil {
					continue
				}
				if cells[c.Node.Type] == nil {
					cells[c.Node.Type] = map[int64]bool{}
					cellTypes = append(cellTypes, c.Node.Type)
				}
				cells[c.Node.Type][c.Node.ID] = true
			}
		}
		sort.Strings(cellTypes)
		for i, t := range cellTypes {
			sep := ", "
			if i == 0 {
				sep = " grouped by "
			}
			fmt.Fprintf(&b, "%s%d %s", sep, len(cells[t]), t)
		}
	}
	return b.String()
}

// LoadCommitted loads the committed corpus: Dir in the module root above
// the working directory.
func LoadCommitted() ([]Case, error) {
	root, err := ModuleRoot(".")
	if err != nil {
		return nil, err
	}
	return Load(filepath.Join(root, Dir))
}

// ModulePath is the graphwire module path.
const ModulePath = "github.com/graphwire/graphwire"

// ModuleRoot returns the graphwire module root: dir or the nearest
// directory above it whose go.mod declares ModulePath. Commands use it to
// find Dir and scorecard.md from anywhere inside the repository.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	for d := dir; ; {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && declaresModule(data) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("corpus: %s is not inside the %s module (no go.mod declaring it above)", dir, ModulePath)
		}
		d = parent
	}
}

func declaresModule(gomod []byte) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == ModulePath {
			return true
		}
	}
	return false
}
