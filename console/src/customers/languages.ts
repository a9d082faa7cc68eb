// Preferred languages offered by name. The API takes any 3-letter ISO 639 code and has no language
// table, so these are the usual ones (ISO 639-2/T); a contact's other code is kept and shown as is.
const LANGUAGES: [string, string][] = [
  ['ara', 'Arabic'], ['bul', 'Bulgarian'], ['ces', 'Czech'], ['dan', 'Danish'], ['deu', 'German'], ['ell', 'Greek'],
  ['eng', 'English'], ['spa', 'Spanish'], ['fin', 'Finnish'], ['fra', 'French'], ['heb', 'Hebrew'], ['hin', 'Hindi'],
  ['hrv', 'Croatian'], ['hun', 'Hungarian'], ['ita', 'Italian'], ['jpn', 'Japanese'], ['nld', 'Dutch'], ['nor', 'Norwegian'],
  ['pol', 'Polish'], ['por', 'Portuguese'], ['ron', 'Romanian'], ['rus', 'Russian'], ['slk', 'Slovak'], ['srp', 'Serbian'],
  ['swe', 'Swedish'], ['tur', 'Turkish'], ['ukr', 'Ukrainian'], ['zho', 'Chinese'],
];

export function languageOptions(current?: string): { value: string; label: string }[] {
  const options = LANGUAGES.map(([value, name]) => ({ value, label: name })).sort((a, b) => a.label.localeCompare(b.label));
  return current && !options.some((o) => o.value === current) ? [...options, { value: current, label: current }] : options;
}

export const languageName = (code: string | null | undefined) => (code ? (LANGUAGES.find(([c]) => c === code)?.[1] ?? code) : undefined);
