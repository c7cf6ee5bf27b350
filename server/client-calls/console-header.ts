// The header the dashboard's Partner console marks its calls with, so the API calls page lists them
// as the console's (and the browser rule does not blame the partner for them). No imports: the
// browser's bundle reads this file too.
export const CONSOLE_HEADER = "x-workbench-console";
