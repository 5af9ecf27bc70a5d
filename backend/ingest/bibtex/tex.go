package bibtex

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// accents are TeX's accent commands and the combining marks they put on
// the letter that follows: \"o and \"{o} are ö.
var accents = map[string]rune{
	`"`: '\u0308', `'`: '\u0301', "`": '\u0300', "^": '\u0302', "~": '\u0303',
	"=": '\u0304', ".": '\u0307', "u": '\u0306', "v": '\u030C', "H": '\u030B',
	"c": '\u0327', "k": '\u0328', "r": '\u030A', "d": '\u0323', "b": '\u0331',
	"t": '\u0361',
}

// symbols are control words that stand for a character or a short text.
var symbols = map[string]string{
	"ss": "ß", "SS": "SS", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
	"aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð",
	"th": "þ", "TH": "Þ", "ng": "ŋ", "NG": "Ŋ", "dj": "đ", "DJ": "Đ",
	"textendash": "–", "textemdash": "—", "ldots": "…", "dots": "…", "textellipsis": "…",
	"textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“", "textquotedblright": "”",
	"guillemotleft": "«", "guillemotright": "»", "S": "§", "P": "¶", "copyright": "©",
	"textcopyright": "©", "textregistered": "®", "texttrademark": "™", "pounds": "£",
	"euro": "€", "texteuro": "€", "textdegree": "°", "textasciitilde": "~",
	"textbackslash": `\`, "textunderscore": "_", "textbar": "|", "textless": "<",
	"textgreater": ">", "textasciicircum": "^", "textbullet": "•", "textperiodcentered": "·",
	"LaTeX": "LaTeX", "TeX": "TeX", "BibTeX": "BibTeX", "LaTeXe": "LaTeX2e",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
	"zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
	"lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
	"tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
	"Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
	"times": "×", "pm": "±", "cdot": "·", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥",
	"neq": "≠", "ne": "≠", "infty": "∞", "rightarrow": "→", "to": "→", "leftarrow": "←",
	"approx": "≈", "sim": "∼", "in": "∈", "ell": "ℓ", "partial": "∂", "nabla": "∇",
	"quad": " ", "qquad": " ", "enspace": " ", "thinspace": " ",
}

// switches are control words that change how text looks and print nothing
// ({\em text}, \relax); the same for commands whose argument is the text
// (\emph{text}): the name goes, the braces go later.
var switches = map[string]bool{
	"em": true, "bf": true, "it": true, "sc": true, "sl": true, "tt": true, "rm": true, "sf": true,
	"itshape": true, "bfseries": true, "scshape": true, "upshape": true, "mdseries": true,
	"normalfont": true, "small": true, "large": true, "Large": true, "tiny": true, "footnotesize": true,
	"relax": true, "protect": true, "nobreak": true, "xspace": true, "hfill": true, "newblock": true,
	"emph": true, "textbf": true, "textit": true, "texttt": true, "textsc": true, "textsf": true,
	"textrm": true, "textup": true, "textsl": true, "textnormal": true, "textmd": true,
	"mathrm": true, "mathbf": true, "mathit": true, "mathcal": true, "mathsf": true, "mathtt": true,
	"mathbb": true, "mathfrak": true, "boldsymbol": true, "bm": true, "mbox": true, "hbox": true,
	"text": true, "url": true, "nolinkurl": true, "enquote": true, "mkbibquote": true,
	"uppercase": true, "lowercase": true, "MakeUppercase": true, "MakeLowercase": true,
	"ensuremath": true, "operatorname": true, "textsuperscript": true, "textsubscript": true,
	"NoCaseChange": true, "acronym": true, "ac": true,
}

// dropArgument are commands whose first argument is not text: \noopsort
// carries a sort key, \href's first argument is the address.
var dropArgument = map[string]bool{"noopsort": true, "href": true, "SortNoop": true, "hyphenation": true}

// CleanTeX turns a BibTeX value into plain text: accents become
// characters ({\"o} and \"{o} are ö, \'{\i} is í), escaped characters
// their character (\& is &), --- an em dash and -- an en dash, “ and ”
// curly quotes, ~ a space; formatting commands keep their text
// (\emph{x} is x), unknown commands without an argument their name
// (\LaTeX is LaTeX); braces and $ go and white space is collapsed.
func CleanTeX(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var mark rune // a combining accent waiting for its letter
	emit := func(text string) {
		if mark != 0 && text != "" {
			r, n := utf8.DecodeRuneInString(text)
			switch r {
			case 'ı':
				r = 'i'
			case 'ȷ':
				r = 'j'
			}
			if r != ' ' {
				b.WriteRune(r)
				b.WriteRune(mark)
				text = text[n:]
			}
			mark = 0
		}
		b.WriteString(text)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '{', '}', '$':
			i++
		case '~':
			emit(" ")
			i++
		case '-':
			n := 1
			for i+n < len(s) && s[i+n] == '-' && n < 3 {
				n++
			}
			emit([]string{"", "-", "–", "—"}[n])
			i += n
		case '`', '\'':
			if i+1 < len(s) && s[i+1] == c {
				if c == '`' {
					emit("“")
				} else {
					emit("”")
				}
				i += 2
			} else {
				emit(string(c))
				i++
			}
		case '\\':
			i = command(s, i+1, emit, &mark)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			emit(s[i : i+n])
			i += n
		}
	}
	return norm.NFC.String(strings.Join(strings.Fields(b.String()), " "))
}

// command reads the control sequence after a backslash at s[i:] and
// returns where reading goes on.
func command(s string, i int, emit func(string), mark *rune) int {
	if i >= len(s) {
		return i
	}
	if !isLetter(s[i]) {
		sym := s[i : i+1]
		i++
		if m, ok := accents[sym]; ok {
			*mark = m
			return skipSpaces(s, i)
		}
		switch sym {
		case `\`, " ", "\n", "\t", ",", ";", ":", "!":
			emit(" ")
		case "-", "/", "@":
		default:
			emit(sym) // \& \% \$ \# \_ \{ \}
		}
		return i
	}
	start := i
	for i < len(s) && isLetter(s[i]) {
		i++
	}
	name := s[start:i]
	if m, ok := accents[name]; ok {
		*mark = m
		return skipSpaces(s, i)
	}
	if sym, ok := symbols[name]; ok {
		emit(sym)
		return skipSpaces(s, i)
	}
	if switches[name] {
		return skipSpaces(s, i)
	}
	if dropArgument[name] {
		return skipGroup(s, skipSpaces(s, i))
	}
	if j := skipSpaces(s, i); j < len(s) && s[j] == '{' {
		return j // an unknown command's argument is kept as text
	}
	emit(name)
	return i
}

// skipGroup skips a braced group at s[i:] (nothing when none starts there).
func skipGroup(s string, i int) int {
	if i >= len(s) || s[i] != '{' {
		return i
	}
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// plain reports whether s is already clean: ASCII without TeX's special
// characters, dashes, quotes or white space other than single spaces
// between words.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c < ' ', strings.IndexByte("\\{}$~-`'", c) >= 0:
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return false
		}
	}
	return true
}
