import { locateGroup, type RegexBackend } from './types.js';

/**
 * V8's RegExp: the reference path of the conformance suite. Not linear-time in general (backtracking),
 * so the scanner never chooses it by default; inside the bounded windows it is safe for the bounded
 * patterns of the managed rules, and it shows what RE2 must agree with.
 */
export const v8Backend: RegexBackend = {
  name: 'v8',
  linear: false,
  compile(pattern, ignoreCase, group) {
    // `d`: group indices, so a value is placed exactly even when its text repeats in the match.
    const re = new RegExp(pattern, `${ignoreCase ? 'giu' : 'gu'}${group > 0 ? 'd' : ''}`);
    return {
      exec(text, from) {
        re.lastIndex = from;
        const m = re.exec(text);
        return m === null ? null : locateGroup(m, group);
      },
    };
  },
};
