// Package toon is graphwire's TOON codec: it writes a wire.GraphResponse
// as one TOON document (spec v4.0, https://github.com/toon-format/spec) in
// a graph-aware layout that any TOON decoder reads, and reads such a
// document back. It registers itself as "toon" (media type text/toon).
// The generic TOON library, for any JSON value, is codecs/toon/toonvalue;
// both are built on one writer and one reader (internal/toonwrite and
// internal/toonread).
//
// # Layout of a GraphResponse
//
// The document is an object with these keys, in this order:
//
//	format_version  string, always
//	query_type      string, always
//	nodes           the nodes, grouped (below), always
//	node_order      only when grouping changed the order of the nodes
//	edges           one table, always ("edges: []" when there are none)
//	columns         table, only when the response has columns
//	group_columns   table, only when the response has group columns
//	rows            aggregation rows, only when the response has rows
//	pagination      {has_more, total_rows?, truncated?, next_cursor?}, only when present
//
// pagination holds the fields present, in canonical JSON's order: schema
// v2's {has_more, total_rows} or schema v5's {has_more, truncated,
// next_cursor?}; a mix is refused (wire.Pagination.Check).
//
// Nodes are grouped by type, the groups in the order in which each type
// first appears. When every node of a type has the same property keys in
// the same order and no property holds a list, the group is a table, the
// id first:
//
//	nodes:
//	  User[2]{id,username,name}:
//	    1001,ada,Ada Lovelace
//	    1002,bob,null
//
// Otherwise the group is in list form, one "- id: ..." item per node, so
// that an absent property and a null one stay distinct:
//
//	MergeRequest[2]:
//	  - id: 9007199254740993
//	    title: Fix the cache
//	    labels[2]: bug,"type::fix"
//	  - id: 42
//
// When a type's nodes have the same keys, no lists, but in different
// orders, each order is a table of its own and nodes is a list of one-key
// objects ("nodes[3]:" then "- User[2]{id,a,b}:" ...). When the groups,
// concatenated, are not the nodes in order, node_order gives each node's
// group index (0-based) in the original order: for User 1, MergeRequest
// 7, User 2, "node_order[3]: 0,1,0".
//
// Edges are one table with columns from, from_id, to, to_id, type, then
// depth, path_id and step, each only when some edge has it; a null cell is
// an absent value:
//
//	edges[2]{from,from_id,to,to_id,type,depth}:
//	  User,1001,MergeRequest,42,AUTHORED,null
//	  User,1002,MergeRequest,42,REVIEWED,1
//
// columns is a table {name,function,target?,property?}, group_columns
// {name,kind,node,property?,entity?}; an empty one is "columns: []". rows
// is an array of objects, a member per cell in stored order, a node cell
// an object {type, id, properties...}. When every row has the same cells
// in the same order, with no lists, the rows are a table, node cells as
// field groups:
//
//	rows[2]{u{type,id,username},merged_count}:
//	  User,1243277,ghost1,65555
//	  User,35702613,bot_a,21277
//
// Otherwise rows are in list form ("- u:" ...); rows with the same cells
// in different orders are each a list of one-cell objects ("- [2]:").
//
// Everything survives, except that numbers compare by value (TOON has one
// number type): 2.0 reads back as the integer 2, -0.0 as 0. Integers keep
// all 64 bits. Strings that look like numbers, booleans or null are quoted.
//
// # Deltas and references
//
// Codec implements delta.DocumentCodec. A document's fields are members
// of its object before the content's: a list of integers a TOON inline
// array "name[3]: 0,3,5" (an empty list left out), a text a TOON string.
// The content is a fragment: format_version and query_type only when not
// empty, nodes and edges only when it has some, "nodes:" for an empty
// content. The delta that changes one property of one node:
//
//	graphwire_delta: "270670938487002172079740440993224071359"
//	nodes_changed[1]: 0
//	nodes:
//	  User[1]{id,username}:
//	    1007430,ada.lovelace
//
// DecodeDocument reads a document with Decode's reader, in one pass. A
// field given twice is a duplicate key; a value not of its field's kind
// is refused at its line. Decode refuses a header field as an unknown
// field, and Sniff rates a document with a header 0.
//
// # Errors
//
// Errors are *wire.DecodeError: a TOON syntax error at its line and
// column, a value of the wrong shape at its line, named by its path
// ("toon: line 7: nodes.User[3].id: expected an integer, found string
// "x""). Encode refuses, with a *wire.EncodeError naming the path, what
// wire.Limits refuse and what the layout cannot carry: NaN or ±Inf, a
// query type or group kind outside the enumerations, a property named
// "type" or "id", a key twice in a node or a row.
//
// # Security
//
// The generic layer's bounds (codecs/toon/toonvalue) hold here too. The
// codec (Decode, Encode and the registered codec use the default
// wire.Limits; a Codec from New its Options.Limits) refuses, with a
// *wire.DecodeError naming the line and the Limits field
// (errors.Is(err, wire.ErrLimit)):
//
//   - MaxInputBytes (default 64 MiB): longer text, before reading it.
//   - MaxDepth (default 32): lists nested deeper, on the decoded values;
//     the reader's nesting is bounded meanwhile by 2·MaxDepth+8 levels.
//   - MaxElements (default 1,048,576): an array declaring or holding more
//     values, before they are read; a field group or object of more than
//     MaxElements+8 names, at the first past it; more nodes, properties
//     in a node or cells in a row.
//   - MaxStringBytes (default 16 MiB): a longer string, node type,
//     property key or cell name (the layout's own keys excepted).
//   - MaxMaterializedBytes (default 256 MiB): a response whose canonical
//     JSON would be larger; a table whose declared rows times its names'
//     bytes pass it is refused at its header, a rows table at the row that
//     passes it.
//
// So a decode's peak heap stays within 16 times its input plus 16 MiB
// before any error (rows in list form, metered once read, can take about
// 40 times a dense input before they are refused). The encoder is
// symmetric: AppendEncode checks r with wire.Limits.Check, then refuses
// text longer than MaxInputBytes, so what a Codec writes, a Codec with the
// same limits reads. The text is at most MaxDepth+8 times the response's
// canonical JSON.
package toon
