package schema

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
)

// A decimal is a JSON number held exactly, as ±0.d₁d₂…dₙ × 10^exp with
// d₁ ≠ 0 and dₙ ≠ 0 (n = 0 for zero). Its digits are the significant parts
// of the literal before and after the decimal point, slices of the
// literal itself: reading a number neither allocates nor does arithmetic
// on its digits, so what validation costs grows with the literal's length,
// never with its value. (big.Rat would compute 10^exp, and refuses
// exponents beyond ±1e6; strconv.ParseFloat rounds.)
type decimal struct {
	neg    bool
	hi, lo []byte // significant digits: hi (integer part) then lo (fraction)
	point  int64  // exp without the literal's exponent
	exp    int64
	// extreme: the literal's exponent has more than maxExpDigits digits.
	// exp is then ±extremeExp+point, beyond every exponent a schema may
	// hold, so ordering against a schema's numbers stays exact; expLit
	// keeps the exponent's digits for exact equality between two such
	// numbers.
	extreme bool
	expNeg  bool
	expLit  []byte
}

const (
	maxExpDigits = 17      // exponents up to 10^17 are kept exactly
	extremeExp   = 1 << 60 // stands for any longer exponent
	maxSchemaExp = 1 << 50 // the largest |exp| a schema's number may have
)

// parseDecimal reads raw, which must follow the JSON number grammar (the
// parser has checked it).
func parseDecimal(raw []byte) decimal {
	var d decimal
	i := 0
	if i < len(raw) && raw[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(raw) && isDigit(raw[i]) {
		i++
	}
	hi := raw[start:i]
	var lo []byte
	if i < len(raw) && raw[i] == '.' {
		i++
		start = i
		for i < len(raw) && isDigit(raw[i]) {
			i++
		}
		lo = raw[start:i]
	}
	var e int64
	if i < len(raw) && (raw[i] == 'e' || raw[i] == 'E') {
		i++
		if i < len(raw) && (raw[i] == '+' || raw[i] == '-') {
			d.expNeg = raw[i] == '-'
			i++
		}
		for i < len(raw)-1 && raw[i] == '0' {
			i++
		}
		d.expLit = raw[i:]
		if len(d.expLit) > maxExpDigits {
			d.extreme = true
			e = extremeExp
		} else {
			for _, c := range d.expLit {
				e = e*10 + int64(c-'0')
			}
		}
		if d.expNeg {
			e = -e
		}
	}
	// Only "0" starts with a zero: then the fraction's leading zeros go.
	point := int64(len(hi))
	if len(hi) > 0 && hi[0] == '0' {
		hi, point = nil, 0
		for len(lo) > 0 && lo[0] == '0' {
			lo = lo[1:]
			point--
		}
	}
	for len(lo) > 0 && lo[len(lo)-1] == '0' {
		lo = lo[:len(lo)-1]
	}
	if len(lo) == 0 {
		for len(hi) > 0 && hi[len(hi)-1] == '0' {
			hi = hi[:len(hi)-1]
		}
	}
	if len(hi)+len(lo) == 0 {
		return decimal{} // zero, however written: -0, 0.0e99
	}
	d.hi, d.lo, d.point, d.exp = hi, lo, point, point+e
	return d
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (d *decimal) digits() int { return len(d.hi) + len(d.lo) }

func (d *decimal) digit(i int) byte {
	if i < len(d.hi) {
		return d.hi[i]
	}
	return d.lo[i-len(d.hi)]
}

func (d *decimal) sign() int {
	switch {
	case d.digits() == 0:
		return 0
	case d.neg:
		return -1
	default:
		return 1
	}
}

// isInt reports whether d has no fractional part.
func (d *decimal) isInt() bool {
	return d.digits() == 0 || d.exp >= int64(d.digits())
}

// cmpDecimal compares x and y. It is exact unless both are extreme, which
// cannot happen when one of them comes from a schema.
func cmpDecimal(x, y *decimal) int {
	sx, sy := x.sign(), y.sign()
	if sx != sy || sx == 0 {
		return compareInts(int64(sx), int64(sy))
	}
	if x.exp != y.exp {
		return sx * compareInts(x.exp, y.exp)
	}
	for i := range max(x.digits(), y.digits()) {
		a, b := byte('0'), byte('0')
		if i < x.digits() {
			a = x.digit(i)
		}
		if i < y.digits() {
			b = y.digit(i)
		}
		if a != b {
			return sx * compareInts(int64(a), int64(b))
		}
	}
	return 0
}

func compareInts(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// appendCanonical appends a form of d that equals that of every other way
// of writing the same number.
func (d *decimal) appendCanonical(b []byte) []byte {
	if d.digits() == 0 {
		return append(b, '0')
	}
	if d.neg {
		b = append(b, '-')
	}
	b = append(append(b, d.hi...), d.lo...)
	b = append(b, 'e')
	if !d.extreme {
		return strconv.AppendInt(b, d.exp, 10)
	}
	// exp = ±expLit + point, exactly; |expLit| ≥ 10^17 > |point|, so the
	// sign is expLit's and the magnitude is expLit ± |point|.
	if d.expNeg {
		b = append(b, '-')
	}
	delta := d.point
	if d.expNeg {
		delta = -delta
	}
	return appendAddSmall(b, d.expLit, delta)
}

// appendAddSmall appends the decimal digits of the integer digits+delta,
// where digits (no leading zeros) is far larger than |delta|.
func appendAddSmall(b, digits []byte, delta int64) []byte {
	out := make([]byte, len(digits)+1)
	carry := delta
	for i := len(digits) - 1; i >= 0; i-- {
		v := int64(digits[i]-'0') + carry%10
		carry /= 10
		switch {
		case v < 0:
			v += 10
			carry--
		case v > 9:
			v -= 10
			carry++
		}
		out[i+1] = byte('0' + v)
	}
	out[0] = byte('0' + carry) // carry is 0 or 1 here
	i := 0
	for i < len(out)-1 && out[i] == '0' {
		i++
	}
	return append(b, out[i:]...)
}

// equalDecimal reports whether x and y are the same number.
func equalDecimal(x, y *decimal) bool {
	if x.extreme || y.extreme {
		return string(x.appendCanonical(nil)) == string(y.appendCanonical(nil))
	}
	return cmpDecimal(x, y) == 0
}

// number is a numeric keyword's value: a bound, or multipleOf.
type number struct {
	text string
	d    decimal
	// For multipleOf, the value is M × 10^scale with M = 2^twos × 5^fives
	// × rest and rest coprime to 10: see isMultiple.
	scale       int64
	twos, fives int64
	rest        *big.Int
	restSmall   uint64 // rest, when it is below 2^32; else 0
}

func newNumber(raw []byte) (*number, error) {
	n := &number{text: string(raw)}
	n.d = parseDecimal([]byte(n.text))
	if n.d.extreme || n.d.exp > maxSchemaExp || n.d.exp < -maxSchemaExp {
		return nil, fmt.Errorf("number %s is out of the supported range", truncate(raw))
	}
	return n, nil
}

// cmp compares the instance number x with n.
func (n *number) cmp(x *decimal) int {
	return cmpDecimal(x, &n.d)
}

func newMultiple(raw []byte) (*number, error) {
	n, err := newNumber(raw)
	if err != nil {
		return nil, err
	}
	if n.d.sign() <= 0 {
		return nil, fmt.Errorf("must be greater than 0")
	}
	m, ok := new(big.Int).SetString(string(n.d.hi)+string(n.d.lo), 10)
	if !ok {
		return nil, fmt.Errorf("invalid number %s", truncate(raw))
	}
	n.scale = n.d.exp - int64(n.d.digits())
	two, five, r := big.NewInt(2), big.NewInt(5), new(big.Int)
	for r.Mod(m, two).Sign() == 0 {
		m.Quo(m, two)
		n.twos++
	}
	for r.Mod(m, five).Sign() == 0 {
		m.Quo(m, five)
		n.fives++
	}
	n.rest = m
	if m.BitLen() <= 32 {
		n.restSmall = m.Uint64()
	}
	return n, nil
}

// isMultiple reports whether x is an integer multiple of n. With x = X ×
// 10^e (X an integer without trailing zeros) and n = M × 10^scale, x/n is
// an integer when M divides X × 10^(e-scale). That needs e ≥ scale (X has
// no factor 10), and then 2^(twos-k) × 5^(fives-k) × rest must divide X,
// where k = e-scale: one pass over X's digits, however large k is.
func (n *number) isMultiple(x *decimal) bool {
	if x.digits() == 0 {
		return true
	}
	k := x.exp - int64(x.digits()) - n.scale
	if k < 0 {
		return false
	}
	twos, fives := max(n.twos-k, 0), max(n.fives-k, 0)
	if d, ok := n.smallDivisor(twos, fives); ok {
		var r uint64
		for i := range x.digits() {
			r = (r*10 + uint64(x.digit(i)-'0')) % d
		}
		return r == 0
	}
	d := new(big.Int).Set(n.rest)
	d.Mul(d, new(big.Int).Exp(big.NewInt(2), big.NewInt(twos), nil))
	d.Mul(d, new(big.Int).Exp(big.NewInt(5), big.NewInt(fives), nil))
	// X mod d, 18 digits at a time.
	r, chunk, ten18 := new(big.Int), new(big.Int), big.NewInt(1e18)
	var acc uint64
	var nacc int
	for i := range x.digits() {
		acc = acc*10 + uint64(x.digit(i)-'0')
		nacc++
		if nacc == 18 || i == x.digits()-1 {
			scale := ten18
			if nacc < 18 {
				scale = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(nacc)), nil)
			}
			r.Mul(r, scale)
			r.Add(r, chunk.SetUint64(acc))
			r.Mod(r, d)
			acc, nacc = 0, 0
		}
	}
	return r.Sign() == 0
}

// smallDivisor returns rest × 2^twos × 5^fives if it is below 2^59, so
// that r*10+9 cannot overflow in isMultiple.
func (n *number) smallDivisor(twos, fives int64) (uint64, bool) {
	d := n.restSmall
	if d == 0 {
		return 0, false
	}
	for range twos {
		if d >= 1<<58 {
			return 0, false
		}
		d *= 2
	}
	for range fives {
		if d >= 1<<56 {
			return 0, false
		}
		d *= 5
	}
	return d, true
}

// isInteger reports whether the JSON number raw has no fractional part.
func isInteger(raw []byte) bool {
	if bytes.IndexAny(raw, ".eE") < 0 {
		return true
	}
	d := parseDecimal(raw)
	return d.isInt()
}
