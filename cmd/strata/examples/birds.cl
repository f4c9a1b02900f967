// The birds of the conditional-logic literature as a .cl knowledge base
// (InfOCF, CLKR): (B|A) is the default A |~ B.
signature
  b, p, f, w
conditionals
birds{
  (f|b), (!f|p), (b|p), (w|b)
}
