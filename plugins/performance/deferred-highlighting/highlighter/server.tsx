/**
 * The highlighter of the server build: prism-react-renderer with the extra
 * grammars, loaded up front, so every code block is highlighted in the HTML.
 * The browser keeps that HTML and never needs Prism to hydrate it (see
 * client.tsx and plugins/performance/deferred-highlighting).
 *
 * Extra grammars (the ones prism-react-renderer does not bundle) are imported
 * in this order on purpose: PHP needs markup-templating first.
 */
import './exposePrism';
import 'prismjs/components/prism-markup-templating.js';
import 'prismjs/components/prism-php.js';
import 'prismjs/components/prism-java.js';
import 'prismjs/components/prism-bash.js';
import './hidePrism';

export {Highlight} from 'prism-react-renderer';
