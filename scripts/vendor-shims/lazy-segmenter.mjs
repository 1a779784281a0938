// Injected into the vendored bundles by scripts/vendor.mjs in place of `Intl.Segmenter`. Making the
// first segmenter loads ICU's break data (~11 ms here); string-width makes three of them when
// yargs loads, for text it measures only when it prints help. This one makes its segmenter on
// first use.
class LazySegmenter {
  #args;
  #segmenter;
  constructor(...args) {
    this.#args = args;
  }
  #real() {
    this.#segmenter ??= new Intl.Segmenter(...this.#args);
    return this.#segmenter;
  }
  segment(input) {
    return this.#real().segment(input);
  }
  resolvedOptions() {
    return this.#real().resolvedOptions();
  }
  static supportedLocalesOf(...args) {
    return Intl.Segmenter.supportedLocalesOf(...args);
  }
}

export { LazySegmenter as 'Intl.Segmenter' };
