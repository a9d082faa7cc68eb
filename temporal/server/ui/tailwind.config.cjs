// @temporalio/ui's exports map offers its Tailwind plugin only to `import`, as an ES module
// without file extensions: Tailwind's config loader (jiti) reads it by file path.
const path = require('node:path');
const defaultTheme = require('tailwindcss/defaultTheme');

const uiDist = path.join(__dirname, 'node_modules/@temporalio/ui/dist');
const { default: temporal, textStyles } = require(`${uiDist}/theme/plugin.js`);

/** @type {import('tailwindcss').Config} */
module.exports = {
  // The library's components carry most of the classes.
  content: ['./src/**/*.{html,js,svelte}', `${uiDist}/**/*.{js,svelte}`],
  darkMode: ['selector', '[data-theme="dark"]'],
  theme: {
    fontFamily: {
      sans: ['Inter', ...defaultTheme.fontFamily.sans],
      mono: ['Noto Sans Mono', ...defaultTheme.fontFamily.mono],
    },
    extend: { zIndex: { 100: '100' } },
  },
  plugins: [temporal, textStyles],
};
