// Imported by the modules scripts/vendor.mjs rewrites (see there) in place of their top-level
// regular expressions with Unicode property escapes: V8 builds such a pattern's character sets
// when the expression is made (`/^\p{RGI_Emoji}$/v`: ~19 ms here), whether a module uses it in a
// run or not. This one is made on first use, and then behaves as the real one.
export function lazyRegExp(source, flags) {
  let real;
  const regexp = () => {
    real ??= new RegExp(source, flags);
    return real;
  };
  return {
    get source() {
      return source;
    },
    get flags() {
      return flags;
    },
    get global() {
      return flags.includes('g');
    },
    get lastIndex() {
      return regexp().lastIndex;
    },
    set lastIndex(value) {
      regexp().lastIndex = value;
    },
    test: (input) => regexp().test(input),
    exec: (input) => regexp().exec(input),
    [Symbol.match]: (input) => regexp()[Symbol.match](input),
    [Symbol.matchAll]: (input) => regexp()[Symbol.matchAll](input),
    [Symbol.search]: (input) => regexp()[Symbol.search](input),
    [Symbol.replace]: (input, replacement) => regexp()[Symbol.replace](input, replacement),
    [Symbol.split]: (input, limit) => regexp()[Symbol.split](input, limit),
    toString: () => `/${source}/${flags}`,
  };
}
