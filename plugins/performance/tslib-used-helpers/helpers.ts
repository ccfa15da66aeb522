// The one tslib helper @docusaurus/utils-common's browser code calls (see index.ts).
export {__importDefault} from 'tslib';
