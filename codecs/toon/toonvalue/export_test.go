package toonvalue

// Internal test helpers, for the external tests of generated_test.go.
var (
	StartReference       = startReference
	CompareWithReference = compareWithReference
	EqualUnordered       = equalUnordered
	JSONOf               = jsonOf
)

const (
	ReferenceVersion   = referenceVersion
	ReferenceDocuments = referenceDocuments
)
