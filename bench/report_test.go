package main

import (
	"slices"
	"testing"
	"time"
)

// TestAlternate checks that the pairs alternate which side goes first and
// that each figure comes back on its own side.
func TestAlternate(t *testing.T) {
	var order []string
	n := 0
	side := func(name string) func() (string, error) {
		return func() (string, error) {
			n++
			order = append(order, name)
			return name + string(rune('0'+n)), nil
		}
	}
	as, bs, err := alternate(3, side("a"), side("b"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "b", "a", "a", "b"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	if want := []string{"a1", "a4", "a5"}; !slices.Equal(as, want) {
		t.Errorf("a's figures %v, want %v", as, want)
	}
	if want := []string{"b2", "b3", "b6"}; !slices.Equal(bs, want) {
		t.Errorf("b's figures %v, want %v", bs, want)
	}
}

func TestPairedDiff(t *testing.T) {
	a := []time.Duration{10, 20, 30}
	b := []time.Duration{7, 22, 25}
	med, lo, hi := pairedDiff(a, b)
	if med != 3 || lo != -2 || hi != 5 {
		t.Errorf("pairedDiff = %v, %v, %v; want 3, -2, 5", med, lo, hi)
	}
}
