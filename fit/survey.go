package fit

import (
	"errors"
	"fmt"

	"github.com/graphwire/graphwire/wire"
)

// SurveyBudgets are the budgets a survey uses by default: 2K, 8K and 32K
// tokens.
var SurveyBudgets = []int{2000, 8000, 32000}

// Case is one named response to survey.
type Case struct {
	Name     string
	Response *wire.GraphResponse
}

// SurveyOptions chooses the registry and the counter of a survey; the
// zero value is the default registry and o200k.
type SurveyOptions struct {
	Registry *wire.Registry
	Counter  string
}

// SurveyRow is what one codec delivers of one case at one budget.
type SurveyRow struct {
	Case   string
	Codec  string
	Budget int
	// Items is nodes + edges + rows of the whole response; FirstPage how
	// many of them the first page holds (0 when even the first unit does
	// not fit).
	Items, FirstPage int
	// FirstPageTokens is the first page's count, WholeTokens the whole
	// response's, both in the codec.
	FirstPageTokens, WholeTokens int
	// Pages is the number of pages that hold the whole response; 0 when
	// some unit alone does not fit the budget.
	Pages int
}

// Survey measures, for every case, codec and budget (in that order of
// nesting), how much of the response the first page delivers and how many
// pages the whole needs: the measure an agent with a token budget lives
// by. Each case is priced once per codec. A case that a codec cannot
// encode is an error naming both.
func Survey(cases []Case, codecs []string, budgets []int, opts SurveyOptions) ([]SurveyRow, error) {
	// Cheap checks first: every budget, codec and case before any
	// response is encoded or counted.
	for _, b := range budgets {
		if b <= 0 {
			return nil, fmt.Errorf("fit: survey budget %d: must be a positive number of tokens", b)
		}
	}
	for _, codec := range codecs {
		if _, err := resolve(opts.Registry, codec, opts.Counter); err != nil {
			return nil, fmt.Errorf("fit: survey in %s: %w", codec, err)
		}
	}
	for _, c := range cases {
		if c.Response == nil {
			return nil, fmt.Errorf("fit: survey %s: nil response", c.Name)
		}
	}
	var rows []SurveyRow
	for _, c := range cases {
		for _, codec := range codecs {
			f, err := prepare(c.Response, opts.Registry, codec, opts.Counter)
			if err != nil {
				return nil, fmt.Errorf("fit: survey %s in %s: %w", c.Name, codec, err)
			}
			items := len(c.Response.Nodes) + len(c.Response.Edges) + len(c.Response.Rows)
			for _, b := range budgets {
				row := SurveyRow{Case: c.Name, Codec: f.name, Budget: b, Items: items, WholeTokens: f.wholeTokens}
				k, p, err := f.next(0, b, true)
				var be *BudgetError
				switch {
				case errors.As(err, &be):
				case err != nil:
					return nil, fmt.Errorf("fit: survey %s in %s: %w", c.Name, codec, err)
				default:
					pl := f.plan
					row.FirstPage = pl.nodes.count(0, k) + pl.edges.count(0, k) + pl.rows.count(0, k)
					row.FirstPageTokens = p.tokens
					if row.Pages, err = f.pages(b); err != nil {
						return nil, fmt.Errorf("fit: survey %s in %s: %w", c.Name, codec, err)
					}
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}
