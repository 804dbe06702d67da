package corpus

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// decl is one exported declaration of the code graph.
type decl struct {
	node     wireNode
	pkg      string
	receiver string   // a method's receiver type name
	refs     []string // qualified names of the types its declaration mentions
	calls    []string // qualified names of the functions its body calls
	docLines int
}

// wireNode is a node under construction: its type, id and properties.
type wireNode struct {
	typ   string
	id    int64
	props []prop
}

type prop struct {
	key string
	val any // string, int, bool
}

// goPackage is one parsed package (or, outside the set, only its imports).
type goPackage struct {
	path, name, synopsis string
	files                int
	imports              []string
	decls                []*decl
	parsed               bool // in the set: declarations read
}

// codeGraph is the graph of one package set: its packages, every package
// they import transitively (imports only), and the set's exported
// declarations.
type codeGraph struct {
	set      []string
	pkgs     map[string]*goPackage
	byName   map[string]*decl // qualified name → declaration
	declList []*decl          // the set's declarations, packages in set order
}

// buildContext selects files as a linux/amd64 build without cgo would,
// whatever machine runs the generator.
func buildContext(goroot string) *build.Context {
	return &build.Context{GOOS: "linux", GOARCH: "amd64", GOROOT: goroot, Compiler: "gc", ReleaseTags: build.Default.ReleaseTags}
}

func loadCodeGraph(goroot string, set []string) (*codeGraph, error) {
	g := &codeGraph{set: set, pkgs: map[string]*goPackage{}, byName: map[string]*decl{}}
	ctx := buildContext(goroot)
	fset := token.NewFileSet()
	for _, path := range set {
		p, err := parsePackage(ctx, fset, goroot, path)
		if err != nil {
			return nil, err
		}
		g.pkgs[path] = p
	}
	// The import closure, imports only, breadth first in sorted order.
	queue := slices.Clone(set)
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		for _, imp := range g.pkgs[path].imports {
			if g.pkgs[imp] != nil {
				continue
			}
			p, err := importsOf(ctx, fset, goroot, imp)
			if err != nil {
				return nil, err
			}
			g.pkgs[imp] = p
			queue = append(queue, imp)
		}
	}
	for _, path := range set {
		for _, d := range g.pkgs[path].decls {
			key := d.pkg + "." + qualifiedName(d)
			if g.byName[key] != nil {
				return nil, fmt.Errorf("corpus: %s declared twice", key)
			}
			g.byName[key] = d
			g.declList = append(g.declList, d)
		}
	}
	return g, g.checkIDs()
}

// qualifiedName is a declaration's name within its package: Name, or
// Type.Method for a method.
func qualifiedName(d *decl) string {
	name := d.node.get("name")
	if d.receiver != "" {
		return d.receiver + "." + name
	}
	return name
}

func (n wireNode) get(key string) string {
	for _, p := range n.props {
		if p.key == key {
			if s, ok := p.val.(string); ok {
				return s
			}
		}
	}
	return ""
}

// checkIDs makes sure no two nodes share an id (ids are hashes of names).
func (g *codeGraph) checkIDs() error {
	seen := map[int64]string{}
	check := func(id int64, name string) error {
		if other, ok := seen[id]; ok && other != name {
			return fmt.Errorf("corpus: %s and %s hash to the same id %d", other, name, id)
		}
		seen[id] = name
		return nil
	}
	for _, path := range sortedKeys(g.pkgs) {
		if err := check(nodeID(GoPackage, path), path); err != nil {
			return err
		}
	}
	for _, d := range g.declList {
		if err := check(d.node.id, d.pkg+"."+qualifiedName(d)); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// nodeID is a node's id: a hash of its type and qualified name, below
// 2^53, so that every set names one declaration with one id.
func nodeID(typ, name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(typ + " " + name))
	return int64(h.Sum64() & (1<<53 - 1))
}

// srcDir is the directory of an import path: GOROOT/src/PATH, or its
// vendored copy for the golang.org/x packages the standard library uses.
func srcDir(goroot, path string) string {
	dir := filepath.Join(goroot, "src", filepath.FromSlash(path))
	if _, err := os.Stat(dir); err != nil {
		return filepath.Join(goroot, "src", "vendor", filepath.FromSlash(path))
	}
	return dir
}

// importsOf reads the imports and the package comment of a package
// outside the set.
func importsOf(ctx *build.Context, fset *token.FileSet, goroot, path string) (*goPackage, error) {
	if path == "C" || path == "unsafe" {
		return &goPackage{path: path, name: path}, nil
	}
	bp, err := ctx.ImportDir(srcDir(goroot, path), 0)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	p := &goPackage{path: path, name: bp.Name, files: len(bp.GoFiles), imports: bp.Imports}
	if bp.Doc != "" {
		p.synopsis = new(doc.Package).Synopsis(bp.Doc)
	}
	return p, nil
}

// parsePackage parses a package of the set whole: its exported
// declarations with their doc comments and signatures, and the calls
// their bodies make.
func parsePackage(ctx *build.Context, fset *token.FileSet, goroot, path string) (*goPackage, error) {
	dir := srcDir(goroot, path)
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		files = append(files, f)
	}
	dp, err := doc.NewFromFiles(fset, files, path, doc.PreserveAST)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	p := &goPackage{path: path, name: bp.Name, synopsis: dp.Synopsis(dp.Doc), files: len(files), imports: bp.Imports, parsed: true}
	x := &extractor{fset: fset, goroot: goroot, pkg: p, imports: map[*ast.File]map[string]string{}}
	for _, f := range files {
		x.imports[f] = importNames(f)
	}
	x.fileOf = func(pos token.Pos) *ast.File {
		for _, f := range files {
			if f.FileStart <= pos && pos <= f.FileEnd {
				return f
			}
		}
		return nil
	}
	x.group(dp.Consts, dp.Vars, dp.Funcs)
	for _, t := range dp.Types {
		x.typ(t)
		x.group(t.Consts, t.Vars, t.Funcs)
		for _, m := range t.Methods {
			x.function(m, t.Name)
		}
	}
	return p, nil
}

// group adds constants, variables and functions, as go/doc lists them for
// a package or beside a type.
func (x *extractor) group(consts, vars []*doc.Value, funcs []*doc.Func) {
	for _, v := range consts {
		x.values(v, "const")
	}
	for _, v := range vars {
		x.values(v, "var")
	}
	for _, fn := range funcs {
		x.function(fn, "")
	}
}

// importNames maps the names a file refers to its imports by to their
// paths.
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if v := strings.LastIndex(path, "/v"); v >= 0 && v == len(path)-len(name)-1 && len(name) > 1 && name[1] >= '0' && name[1] <= '9' {
			// math/rand/v2 is package rand.
			prev := path[:v]
			name = prev[strings.LastIndex(prev, "/")+1:]
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[name] = path
	}
	return out
}

// extractor turns one package's go/doc declarations into nodes.
type extractor struct {
	fset    *token.FileSet
	goroot  string
	pkg     *goPackage
	imports map[*ast.File]map[string]string
	fileOf  func(token.Pos) *ast.File
}

// position is a declaration's place, relative to GOROOT/src:
// "net/http/request.go:123".
func (x *extractor) position(pos token.Pos) string {
	p := x.fset.Position(pos)
	rel, err := filepath.Rel(filepath.Join(x.goroot, "src"), p.Filename)
	if err != nil {
		rel = filepath.Base(p.Filename)
	}
	return filepath.ToSlash(rel) + ":" + strconv.Itoa(p.Line)
}

// source prints a node as gofmt would, without comments.
func (x *extractor) source(n any) string {
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, x.fset, n); err != nil {
		return ""
	}
	return b.String()
}

func (x *extractor) add(typ, name, receiver string, pos token.Pos, docText string, props []prop, refs, calls []string) {
	qual := name
	if receiver != "" {
		qual = receiver + "." + name
	}
	all := []prop{{"name", name}, {"package", x.pkg.path}}
	if receiver != "" {
		all = append(all, prop{"receiver", receiver})
	}
	all = append(all, props...)
	all = append(all, prop{"doc", docText}, prop{"position", x.position(pos)}, prop{"deprecated", strings.Contains(docText, "\nDeprecated: ") || strings.HasPrefix(docText, "Deprecated: ")})
	lines := strings.Count(docText, "\n")
	x.pkg.decls = append(x.pkg.decls, &decl{
		node: wireNode{typ: typ, id: nodeID(typ, x.pkg.path+"."+qual), props: all},
		pkg:  x.pkg.path, receiver: receiver, refs: refs, calls: calls, docLines: lines,
	})
}

func (x *extractor) function(fn *doc.Func, receiver string) {
	d := fn.Decl
	sig := x.source(&ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type})
	typ := GoFunction
	if receiver != "" {
		typ = GoMethod
	}
	params := 0
	for _, f := range d.Type.Params.List {
		params += max(1, len(f.Names))
	}
	file := x.fileOf(d.Pos())
	refs := x.typeRefs(file, d.Type)
	var calls []string
	if d.Body != nil {
		calls = x.callsIn(file, d.Body)
	}
	x.add(typ, fn.Name, receiver, d.Pos(), fn.Doc, []prop{{"signature", sig}, {"params", params}}, refs, calls)
}

func (x *extractor) typ(t *doc.Type) {
	for _, s := range t.Decl.Specs {
		ts, ok := s.(*ast.TypeSpec)
		if !ok || ts.Name.Name != t.Name {
			continue
		}
		kind, members := "", 0
		decl := "type " + x.source(ts)
		switch tt := ts.Type.(type) {
		case *ast.StructType:
			kind, members = "struct", len(tt.Fields.List)
			decl = x.header(ts, "struct")
		case *ast.InterfaceType:
			kind, members = "interface", len(tt.Methods.List)
			decl = x.header(ts, "interface")
		case *ast.FuncType:
			kind = "func"
		case *ast.MapType:
			kind = "map"
		case *ast.ArrayType:
			kind = "slice"
			if tt.Len != nil {
				kind = "array"
			}
		case *ast.ChanType:
			kind = "chan"
		default:
			kind = "named"
		}
		if ts.Assign.IsValid() {
			kind = "alias"
		}
		file := x.fileOf(ts.Pos())
		refs := x.typeRefs(file, ts.Type)
		x.add(GoType, t.Name, "", ts.Pos(), t.Doc, []prop{{"kind", kind}, {"declaration", decl}, {"members", members}}, refs, nil)
	}
}

// header is a struct or interface type's declaration without its body:
// "type Request struct", "type Seq[V any] interface".
func (x *extractor) header(ts *ast.TypeSpec, keyword string) string {
	short := *ts
	short.Type = ast.NewIdent(keyword)
	return "type " + x.source(&short)
}

func (x *extractor) values(v *doc.Value, kind string) {
	single := len(v.Decl.Specs) == 1
	for _, s := range v.Decl.Specs {
		vs := s.(*ast.ValueSpec)
		text := ""
		switch {
		case vs.Doc != nil:
			text = vs.Doc.Text()
		case vs.Comment != nil:
			text = vs.Comment.Text()
		case single:
			text = v.Doc
		}
		for i, n := range vs.Names {
			if !n.IsExported() {
				continue
			}
			one := &ast.ValueSpec{Names: []*ast.Ident{n}, Type: vs.Type}
			if i < len(vs.Values) {
				one.Values = []ast.Expr{vs.Values[i]}
			}
			file := x.fileOf(n.Pos())
			var refs []string
			if vs.Type != nil {
				refs = x.typeRefs(file, vs.Type)
			}
			x.add(GoValue, n.Name, "", n.Pos(), text, []prop{{"kind", kind}, {"declaration", kind + " " + x.source(one)}}, refs, nil)
		}
	}
}

// resolve names what an identifier or a selector refers to, when it can
// be said without type checking: an exported name of this package, or
// pkg.Name of an imported package.
func (x *extractor) resolve(file *ast.File, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		if e.IsExported() {
			return x.pkg.path + "." + e.Name
		}
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok && e.Sel.IsExported() && file != nil {
			if path, ok := x.imports[file][id.Name]; ok {
				return path + "." + e.Sel.Name
			}
		}
	}
	return ""
}

// typeRefs lists, in order of first appearance, the named types an
// expression mentions.
func (x *extractor) typeRefs(file *ast.File, n ast.Node) []string {
	var out []string
	ast.Inspect(n, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			if q := x.resolve(file, e.(ast.Expr)); q != "" && !slices.Contains(out, q) {
				out = append(out, q)
			}
			return false
		}
		return true
	})
	return out
}

// callsIn lists, in order of first appearance, the functions a body calls
// by a name it can resolve without type checking.
func (x *extractor) callsIn(file *ast.File, body *ast.BlockStmt) []string {
	var out []string
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if q := x.resolve(file, c.Fun); q != "" && !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
		return true
	})
	return out
}
