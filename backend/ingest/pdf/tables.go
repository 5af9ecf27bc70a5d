package pdf

import "math"

// findTables marks runs of lines that are the rows of a table: two or more
// consecutive lines of one segment, each of several cells (fragments set
// apart by wide gaps), whose cells line up from row to row.
func (a *analysis) findTables() {
	id := 0
	for i := 0; i < len(a.lines); {
		j := i
		for j+1 < len(a.lines) && a.tableRow(j) && a.tableRow(j+1) && a.rowsAlign(a.lines[j], a.lines[j+1]) {
			j++
		}
		if j > i && a.tableLike(i, j) {
			id++
			for k := i; k <= j; k++ {
				a.roles[k], a.tables[k] = roleTable, id
			}
			i = j + 1
			continue
		}
		i++
	}
}

// tableRow tells whether line i could be a table's row: several cells,
// and not a justified line of prose whose stretched word spaces came out
// wide (a table's gaps are wider still).
func (a *analysis) tableRow(i int) bool {
	l := a.lines[i]
	if a.roles[i] != roleBody || len(l.cells) < 2 {
		return false
	}
	return !l.justified() || widestGap(l) >= 2*a.em()
}

func widestGap(l *line) float64 {
	gap := 0.0
	for i := 1; i < len(l.cells); i++ {
		gap = math.Max(gap, l.cells[i].x0-l.cells[i-1].x1)
	}
	return gap
}

// rowsAlign tells whether two lines are neighbouring rows of one table:
// same segment, close together, two cell edges in common.
func (a *analysis) rowsAlign(p, l *line) bool {
	if p.seg != l.seg || l.y0-p.y1 > 1.5*p.height() {
		return false
	}
	shared := 0
	for _, c := range p.cells {
		for _, d := range l.cells {
			if math.Abs(c.x0-d.x0) < 2 || math.Abs(c.x1-d.x1) < 2 || math.Abs(c.x0+c.x1-d.x0-d.x1) < 4 {
				shared++
				break
			}
		}
	}
	return shared >= 2
}

// tableLike asks more of a short run of rows: three rows, or a row of
// three cells, so that two headings in a row ("3 Method", "3.1 Setup")
// are not a table.
func (a *analysis) tableLike(i, j int) bool {
	if j-i+1 >= 3 {
		return true
	}
	for k := i; k <= j; k++ {
		if len(a.lines[k].cells) >= 3 {
			return true
		}
	}
	return false
}
