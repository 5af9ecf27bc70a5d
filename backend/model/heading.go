package model

import (
	"regexp"
	"strings"
)

// headingAttributes is an attribute list closing a heading, as Pandoc,
// kramdown and MkDocs (attr_list) write them: "{ #id .class key=value }"
// (kramdown's "{: #id }" too). At least one item, each an id, a class or a
// key=value: a placeholder such as "{item_id}" is not one.
var headingAttributes = regexp.MustCompile(`\s*\{:?\s*((?:[#.][\w:.-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s"'}]+))(?:\s+(?:[#.][\w:.-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s"'}]+)))*)\s*\}\s*$`)

// HeadingAttributes splits a heading's text from the attribute list that
// closes it ("First Steps { #first-steps }" → "First Steps", id
// "first-steps"); a heading without one is returned as it is, id "".
func HeadingAttributes(heading string) (title, id string) {
	if !strings.HasSuffix(strings.TrimRight(heading, " \t"), "}") {
		return heading, "" // most headings: no regular expression run
	}
	m := headingAttributes.FindStringSubmatchIndex(heading)
	if m == nil || strings.TrimSpace(heading[:m[0]]) == "" {
		return heading, ""
	}
	for _, item := range strings.Fields(heading[m[2]:m[3]]) {
		if strings.HasPrefix(item, "#") && id == "" {
			id = item[1:]
		}
	}
	return heading[:m[0]], id
}
