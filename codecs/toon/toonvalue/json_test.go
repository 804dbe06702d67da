package toonvalue

import "testing"

func TestFromJSONToJSON(t *testing.T) {
	text, err := FromJSON([]byte(`{"users":[{"id":1,"name":"Ada"},{"name":"Bob","id":2}]}`), EncodeOptions{Delimiter: Tab})
	if err != nil {
		t.Fatal(err)
	}
	if want := "users[2\t]{id\tname}:\n  1\tAda\n  2\tBob"; string(text) != want {
		t.Errorf("FromJSON = %q, want %q", text, want)
	}
	js, err := ToJSON(text, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]}`; string(js) != want {
		t.Errorf("ToJSON = %s, want %s", js, want)
	}
}
