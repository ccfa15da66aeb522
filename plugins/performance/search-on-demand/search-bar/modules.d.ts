// The search plugin's own files, which client.tsx reuses so its stand-in matches the plugin's markup (no types shipped).
declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/keymap' {
  export function getKeymapHints(keymap: string, isMac: boolean): string[];
  export function parseKeymap(keymap: string): {key: string; ctrl: boolean; alt: boolean; shift: boolean; meta: boolean};
  export function matchesKeymap(event: KeyboardEvent, keymap: ReturnType<typeof parseKeymap>): boolean;
}
declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/platform' {
  export function isMacPlatform(): boolean;
}
