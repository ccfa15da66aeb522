/**
 * Code colours as CSS rules per colour mode, instead of the inline styles
 * prism-react-renderer writes from the theme. The server-rendered highlight is
 * then right in both modes, so the browser can keep it as it is: no Prism and
 * no re-render of every code block after hydration (see
 * src/theme/CodeBlock/Content and plugins/performance/deferred-highlighting).
 */
import type {PrismTheme} from 'prism-react-renderer';

const kebab = (property: string) => property.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function declarations(style: Record<string, unknown>): string {
  return Object.entries(style)
    .filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number')
    .map(([property, value]) => `${kebab(property)}: ${value};`)
    .join(' ');
}

export function codeThemeCss(themes: Record<'light' | 'dark', PrismTheme>): string {
  const rules: string[] = [];
  for (const [mode, theme] of Object.entries(themes)) {
    const scope = `[data-theme='${mode}']`;
    const {color, backgroundColor} = theme.plain;
    rules.push(
      `${scope} { ${color ? `--prism-color: ${color};` : ''} ${backgroundColor ? `--prism-background-color: ${backgroundColor};` : ''} }`,
    );
    rules.push(`${scope} .prism-code { ${declarations(theme.plain as Record<string, unknown>)} }`);
    for (const entry of theme.styles) {
      const body = declarations(entry.style as Record<string, unknown>);
      if (!body) continue;
      const languages = entry.languages?.length ? entry.languages.map((language) => `.language-${language} `) : [''];
      const selectors = languages.flatMap((language) => entry.types.map((type) => `${scope} ${language}.token.${type}`));
      rules.push(`${selectors.join(', ')} { ${body} }`);
    }
  }
  return `/* Generated from the Prism themes in docusaurus.config.ts by plugins/performance/deferred-highlighting/codeThemeCss.ts. */\n${rules.join('\n')}\n`;
}
