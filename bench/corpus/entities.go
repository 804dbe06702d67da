package corpus

import (
	"math"
	"strconv"
	"time"

	"github.com/graphwire/graphwire/wire"
)

// Entity types and relationship types of the corpus.
const (
	User          = "User"
	Group         = "Group"
	Project       = "Project"
	MergeRequest  = "MergeRequest"
	Issue         = "Issue"
	Pipeline      = "Pipeline"
	Vulnerability = "Vulnerability"

	Authored    = "AUTHORED"
	InProject   = "IN_PROJECT"
	InGroup     = "IN_GROUP"
	MemberOf    = "MEMBER_OF"
	Contains    = "CONTAINS"
	Assigned    = "ASSIGNED"
	Reviewed    = "REVIEWED"
	HasPipeline = "HAS_PIPELINE"
	Detected    = "DETECTED"
)

// detail says how many properties an entity carries: the few a traversal
// selects, or the full set a search or neighbors query returns.
type detail int

const (
	summary detail = iota
	full
)

// epoch is the corpus's "now": 2026-05-10 12:00:00 UTC. Timestamps fall in
// the two years before it.
var epoch = time.Date(2026, 5, 10, 12, 0, 0, 0, time.UTC)

// builder makes entities with ids that never repeat within one response.
type builder struct {
	r      *rng
	nextID map[string]int64
}

func newBuilder(r *rng) *builder {
	return &builder{r: r, nextID: map[string]int64{
		User:          1_000_000,
		Group:         9_000_000,
		Project:       270_000,
		MergeRequest:  480_000_000,
		Issue:         150_000_000,
		Pipeline:      1_200_000_000,
		Vulnerability: 70_000_000,
	}}
}

// id returns a fresh id for typ. Ids grow by a random stride, as database
// ids seen through a query do. Some pipelines and vulnerabilities have ids
// above 2^53, which a float64 cannot hold exactly.
func (b *builder) id(typ string) int64 {
	b.nextID[typ] += int64(1 + b.r.intn(5000))
	id := b.nextID[typ]
	if (typ == Vulnerability || typ == Pipeline) && b.r.chance(8) {
		id += 1 << 53
	}
	return id
}

// clickhouse returns a datetime the way ClickHouse prints it, with or
// without microseconds: "2026-05-08 22:55:58[.467450]".
func (b *builder) clickhouse(maxAgeDays int) string {
	t := epoch.Add(-time.Duration(b.r.int63n(int64(maxAgeDays)*24*3600)) * time.Second)
	if b.r.chance(60) {
		return t.Format("2006-01-02 15:04:05") + "." + pad6(b.r.intn(1_000_000))
	}
	return t.Format("2006-01-02 15:04:05")
}

// later returns a ClickHouse datetime after ts (as printed by clickhouse),
// at most maxHours later and not after epoch.
func (b *builder) later(ts string, maxHours int) string {
	t, err := time.Parse("2006-01-02 15:04:05", ts[:19])
	if err != nil {
		panic("corpus: bad timestamp " + ts) // generator bug, never input
	}
	// No later than the corpus's "now", unless ts leaves no room.
	span := min(int64(maxHours)*3600, int64(epoch.Sub(t)/time.Second))
	t = t.Add(time.Duration(1+b.r.int63n(max(span, 1))) * time.Second)
	return t.Format("2006-01-02 15:04:05") + ts[19:]
}

func (b *builder) date(maxAgeDays int) string {
	return epoch.Add(-time.Duration(b.r.intn(maxAgeDays)) * 24 * time.Hour).Format("2006-01-02")
}

func pad6(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 6 {
		s = "0" + s
	}
	return s
}

// round returns f rounded to d decimals, as a database would store it.
func round(f float64, d int) float64 {
	p := math.Pow(10, float64(d))
	return math.Round(f*p) / p
}

func str(s string) wire.Value { return wire.String(s) }

// strOrNull is null when s is empty and the coin says so, else the string
// (which may be empty: GKG returns both).
func (b *builder) strOrNull(s string) wire.Value {
	if s == "" && b.r.chance(50) {
		return wire.Null()
	}
	return wire.String(s)
}

func (b *builder) user(d detail) wire.Node {
	r := b.r
	id := b.id(User)
	name := personName(r)
	uname := username(r, name, int(id%1000))
	props := []wire.Property{
		wire.Prop("username", str(uname)),
		wire.Prop("name", str(name)),
		wire.Prop("state", str(pick(r, []string{"active", "active", "active", "active", "blocked", "deactivated"}))),
	}
	if d == full {
		email := ""
		if r.chance(40) {
			email = uname + "@example.com"
		}
		props = append(props,
			wire.Prop("bot", wire.Bool(r.chance(5))),
			wire.Prop("public_email", b.strOrNull(email)),
			wire.Prop("web_url", str("https://gitlab.example.com/"+uname)),
			wire.Prop("created_at", str(b.clickhouse(3000))),
		)
		if r.chance(80) {
			props = append(props, wire.Prop("last_activity_on", str(b.date(60))))
		} else {
			props = append(props, wire.Prop("last_activity_on", wire.Null()))
		}
	}
	return wire.Node{Type: User, ID: id, Properties: props}
}

func (b *builder) group(d detail, parent string) wire.Node {
	r := b.r
	id := b.id(Group)
	path := pick(r, groupWords)
	if r.chance(50) {
		path += "-" + strconv.Itoa(int(id%100))
	}
	fullPath := path
	if parent != "" {
		fullPath = parent + "/" + path
	}
	props := []wire.Property{
		wire.Prop("name", str(path)),
		wire.Prop("full_path", str(fullPath)),
	}
	if d == full {
		props = append(props,
			wire.Prop("path", str(path)),
			wire.Prop("visibility_level", str(pick(r, []string{"public", "internal", "private"}))),
			wire.Prop("description", str(pick(r, []string{"", "", "Everything the " + path + " team ships.", description(r, "", 120)}))),
			wire.Prop("created_at", str(b.clickhouse(3000))),
		)
	}
	return wire.Node{Type: Group, ID: id, Properties: props}
}

func (b *builder) project(d detail, group string) wire.Node {
	r := b.r
	id := b.id(Project)
	path := pick(r, projectWords)
	if r.chance(40) {
		path += "-" + strconv.Itoa(int(id%1000))
	}
	if group == "" {
		group = pick(r, groupWords)
	}
	props := []wire.Property{
		wire.Prop("name", str(path)),
		wire.Prop("full_path", str(group+"/"+path)),
	}
	if d == full {
		desc := ""
		switch r.intn(4) {
		case 0:
		case 1:
			desc = pick(r, sentences)
		default:
			desc = description(r, "## About", r.between(150, 900))
		}
		props = append(props,
			wire.Prop("path", str(path)),
			wire.Prop("visibility_level", str(pick(r, []string{"public", "internal", "private"}))),
			wire.Prop("archived", wire.Bool(r.chance(7))),
			wire.Prop("default_branch", str(pick(r, []string{"main", "main", "master", "develop"}))),
			wire.Prop("star_count", wire.Int(int64(r.intn(4000)))),
			wire.Prop("forks_count", wire.Int(int64(r.intn(600)))),
			wire.Prop("created_at", str(b.clickhouse(3000))),
			wire.Prop("last_activity_at", str(b.clickhouse(30))),
			wire.Prop("description", b.strOrNull(desc)),
		)
	}
	return wire.Node{Type: Project, ID: id, Properties: props}
}

func (b *builder) mergeRequest(d detail) wire.Node {
	r := b.r
	id := b.id(MergeRequest)
	iid := 1 + r.intn(190_000)
	state := pick(r, []string{"merged", "merged", "merged", "opened", "opened", "closed", "locked"})
	created := b.clickhouse(700)
	props := []wire.Property{
		wire.Prop("iid", wire.Int(int64(iid))),
		wire.Prop("title", str(title(r))),
		wire.Prop("state", str(state)),
		wire.Prop("created_at", str(created)),
	}
	mergedAt, closedAt := wire.Null(), wire.Null()
	switch state {
	case "merged":
		mergedAt = str(b.later(created, 24*30))
	case "closed":
		closedAt = str(b.later(created, 24*60))
	}
	props = append(props, wire.Prop("merged_at", mergedAt))
	if d == full {
		var desc string
		switch n := r.intn(10); {
		case n < 2:
			desc = ""
		case n < 8:
			desc = description(r, "## What does this MR do?", r.between(60, 700))
		default:
			desc = description(r, "## What does this MR do?", r.between(900, 3000))
		}
		props = append(props,
			wire.Prop("draft", wire.Bool(r.chance(15))),
			wire.Prop("source_branch", str(branch(r, iid))),
			wire.Prop("target_branch", str(pick(r, []string{"main", "main", "main", "master", "16-11-stable-ee"}))),
			wire.Prop("merge_status", str(pick(r, []string{"can_be_merged", "cannot_be_merged", "unchecked", "checking"}))),
			wire.Prop("approvals_required", wire.Int(int64(r.intn(3)))),
			wire.Prop("user_notes_count", wire.Int(int64(r.intn(120)))),
			wire.Prop("updated_at", str(b.later(created, 24*90))),
			wire.Prop("closed_at", closedAt),
			wire.Prop("description", b.strOrNull(desc)),
		)
	}
	return wire.Node{Type: MergeRequest, ID: id, Properties: props}
}

func (b *builder) issue(d detail) wire.Node {
	r := b.r
	id := b.id(Issue)
	state := pick(r, []string{"opened", "opened", "closed"})
	created := b.clickhouse(900)
	props := []wire.Property{
		wire.Prop("iid", wire.Int(int64(1+r.intn(500_000)))),
		wire.Prop("title", str(title(r))),
		wire.Prop("state", str(state)),
		wire.Prop("created_at", str(created)),
	}
	if d == full {
		weight := wire.Null()
		if r.chance(45) {
			weight = wire.Int(int64(r.intn(10)))
		}
		due := ""
		if r.chance(25) {
			due = b.date(200)
		}
		closed := wire.Null()
		if state == "closed" {
			closed = str(b.later(created, 24*120))
		}
		desc := ""
		if r.chance(80) {
			desc = description(r, pick(r, []string{"", "### Problem", "## Summary"}), r.between(40, 1400))
		}
		props = append(props,
			wire.Prop("confidential", wire.Bool(r.chance(10))),
			wire.Prop("weight", weight),
			wire.Prop("due_date", str(due)),
			wire.Prop("upvotes", wire.Int(int64(r.intn(300)))),
			wire.Prop("closed_at", closed),
			wire.Prop("description", b.strOrNull(desc)),
		)
	}
	return wire.Node{Type: Issue, ID: id, Properties: props}
}

func (b *builder) pipeline(d detail) wire.Node {
	r := b.r
	id := b.id(Pipeline)
	status := pick(r, []string{"success", "success", "success", "failed", "running", "canceled", "skipped", "manual"})
	created := b.clickhouse(120)
	props := []wire.Property{
		wire.Prop("iid", wire.Int(int64(1+r.intn(3_000_000)))),
		wire.Prop("status", str(status)),
		wire.Prop("ref", str(pick(r, []string{"main", "main", "master", "refs/merge-requests/1234/head", "v17.0.0", "1234"}))),
		wire.Prop("sha", str(sha(r))),
		wire.Prop("created_at", str(created)),
	}
	if d == full {
		duration, finished := wire.Null(), wire.Null()
		if status != "running" && status != "manual" {
			secs := 30 + r.float()*3600
			duration = wire.Float(secs) // full float64 precision, like 941.131772070606
			finished = str(b.later(created, 2))
		}
		coverage := wire.Null()
		if r.chance(60) {
			coverage = wire.Float(round(40+r.float()*60, 2))
		}
		yamlErrors := wire.Null()
		if r.chance(4) {
			// A long error text (over GOON's 1000 code-point limit for keys
			// other than the long-text ones).
			yamlErrors = str(yamlError(r))
		}
		props = append(props,
			wire.Prop("source", str(pick(r, []string{"push", "merge_request_event", "schedule", "web", "api", "parent_pipeline"}))),
			wire.Prop("tag", wire.Bool(r.chance(10))),
			wire.Prop("duration", duration),
			wire.Prop("queued_duration", wire.Float(round(r.float()*90, 3))),
			wire.Prop("coverage", coverage),
			wire.Prop("finished_at", finished),
			wire.Prop("yaml_errors", yamlErrors),
		)
	}
	return wire.Node{Type: Pipeline, ID: id, Properties: props}
}

func yamlError(r *rng) string {
	s := "jobs:test:script config should be a string or a nested array of strings up to 10 levels deep\n"
	for runeLen(s) <= 1100 {
		s += "jobs:" + pick(r, projectWords) + ":rules:if invalid expression syntax near \"$CI_COMMIT_BRANCH ==\"\t(line " + strconv.Itoa(1+r.intn(400)) + ")\n"
	}
	return s
}

func (b *builder) vulnerability(d detail) wire.Node {
	r := b.r
	id := b.id(Vulnerability)
	severity := pick(r, severities)
	state := pick(r, []string{"detected", "detected", "confirmed", "resolved", "dismissed"})
	detected := b.clickhouse(400)
	props := []wire.Property{
		wire.Prop("uuid", str(uuid(r))),
		wire.Prop("title", str(pick(r, vulnTitles))),
		wire.Prop("severity", str(severity)),
		wire.Prop("state", str(state)),
	}
	if d == full {
		cvss := wire.Null()
		if severity != "unknown" && severity != "info" {
			// Scores have one decimal; whole ones (7.0) must stay floats.
			cvss = wire.Float(cvssScore(r, severity))
		}
		resolved := wire.Null()
		if state == "resolved" {
			resolved = str(b.later(detected, 24*60))
		}
		props = append(props,
			wire.Prop("report_type", str(pick(r, []string{"sast", "dependency_scanning", "secret_detection", "container_scanning", "dast"}))),
			wire.Prop("cvss_score", cvss),
			wire.Prop("confidence", str(pick(r, []string{"high", "medium", "low", "unknown", ""}))),
			wire.Prop("location_file", str(pick(r, vulnFiles))),
			wire.Prop("location_line", wire.Int(int64(1+r.intn(2000)))),
			wire.Prop("detected_at", str(detected)),
			wire.Prop("resolved_at", resolved),
			wire.Prop("description", str(description(r, "### Description", r.between(200, 1600)))),
		)
	}
	return wire.Node{Type: Vulnerability, ID: id, Properties: props}
}

func edge(from wire.Node, rel string, to wire.Node) wire.Edge {
	return wire.Edge{From: from.Type, FromID: from.ID, To: to.Type, ToID: to.ID, Type: rel}
}

// cvssScore returns a CVSS base score in the band of the severity.
func cvssScore(r *rng, severity string) float64 {
	lo, hi := 1, 39
	switch severity {
	case "critical":
		lo, hi = 90, 100
	case "high":
		lo, hi = 70, 89
	case "medium":
		lo, hi = 40, 69
	}
	return float64(r.between(lo, hi)) / 10
}
