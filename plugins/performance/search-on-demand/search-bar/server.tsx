// The server build renders the search plugin's own search bar; the browser build's client.tsx hydrates that markup.
export {default} from '@theme-original/SearchBar';
