import { isStorableText, unstorableTextProblem } from '../text.ts';
import { RULE_LIMITS } from './rule-definition.ts';

/**
 * What is wrong with an extraction pattern, or null. PostgreSQL runs the pattern (its "advanced
 * regular expressions"), so it must be linear-time there: backreferences and lookaround are
 * refused (SPEC §8.1), as are constructs that PostgreSQL reads differently from JavaScript
 * (\b is a backspace there). It must compile in JavaScript too (a syntax check that catches
 * most slips; rules.ts then has PostgreSQL compile it), and have exactly one capturing group,
 * whose text is what the value becomes.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty: write a pattern with one capturing group, e.g. "INV-(\\d+)"';
  if (pattern.length > RULE_LIMITS.patternLength) return `must be at most ${RULE_LIMITS.patternLength} characters, got ${pattern.length}`;
  if (!isStorableText(pattern)) return unstorableTextProblem(pattern);
  let capturingGroups = 0;
  let inBracket = false;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index]!;
    if (character === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) return 'ends with a lone backslash; escape it as \\\\ or remove it';
      if (!inBracket) {
        if (next >= '1' && next <= '9') {
          return `has a backreference (\\${next}), which cannot run in linear time; rewrite it without backreferences (repeat the sub-pattern itself instead)`;
        }
        if (next === 'k' && pattern[index + 2] === '<') {
          return 'has a named backreference (\\k<...>), which cannot run in linear time; rewrite it without backreferences';
        }
        if (next === 'b' || next === 'B') {
          return `uses \\${next}, which PostgreSQL (where the pattern runs) reads as ${next === 'b' ? 'a backspace character' : 'a backslash'}, not as a word boundary; use \\y for a word boundary, or \\m and \\M for the start and the end of a word`;
        }
      }
      index += 1;
      continue;
    }
    if (inBracket) {
      // A POSIX class such as [:alpha:] (or [.x.], [=x=]) inside a bracket expression is one unit.
      const opener = pattern[index + 1];
      if (character === '[' && (opener === ':' || opener === '.' || opener === '=')) {
        const close = pattern.indexOf(`${opener}]`, index + 2);
        if (close !== -1) {
          index = close + 1;
          continue;
        }
      }
      if (character === ']') inBracket = false;
      continue;
    }
    if (character === '[') {
      inBracket = true;
      if (pattern[index + 1] === '^') index += 1;
      // A ']' right after '[' or '[^' is a literal member in PostgreSQL.
      if (pattern[index + 1] === ']') index += 1;
      continue;
    }
    if (character === '(') {
      if (pattern[index + 1] !== '?') {
        capturingGroups += 1;
        continue;
      }
      const rest = pattern.slice(index + 2, index + 4);
      if (rest.startsWith(':')) continue;
      if (rest.startsWith('=') || rest.startsWith('!')) {
        return `has a lookahead (${pattern.slice(index, index + 3)}...), which cannot run in linear time; rewrite it without lookaround (match the text and extract the part you need with the capturing group)`;
      }
      if (rest === '<=' || rest === '<!') {
        return `has a lookbehind (${pattern.slice(index, index + 4)}...), which cannot run in linear time; rewrite it without lookaround (match the text and extract the part you need with the capturing group)`;
      }
      if (rest.startsWith('<') || rest.startsWith('P')) {
        return 'has a named group (?<name>...); use a plain group (...): its one capturing group is what is extracted';
      }
      if (rest.startsWith('>')) return 'has an atomic group (?>...), which PostgreSQL does not support; use a plain group';
      return `has an embedded option or group (${pattern.slice(index, index + 3)}...), which is not accepted; for matching regardless of case use "normalize": ["casefold"] on both values`;
    }
    const closesQuantifier = character !== '}' || /\{\d+(?:,\d*)?\}$/.test(pattern.slice(0, index + 1));
    if ((character === '*' || character === '+' || character === '?' || character === '}') && closesQuantifier && pattern[index + 1] === '+') {
      return `has a possessive quantifier (${character}+), which PostgreSQL does not support; use a plain quantifier (${character === '}' ? '{n,m}' : character})`;
    }
  }
  try {
    new RegExp(pattern);
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return `is not a valid regular expression (${reason}); check brackets, parentheses and escapes`;
  }
  if (capturingGroups === 0) return 'has no capturing group; put the part to extract in parentheses, e.g. "INV-(\\d+)"';
  if (capturingGroups > 1) {
    return `has ${capturingGroups} capturing groups but must have exactly one (the part to extract); make the others non-capturing with (?:...)`;
  }
  return null;
}
