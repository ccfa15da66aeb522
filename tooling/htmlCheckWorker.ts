/**
 * One of the processes tooling/htmlCheck.ts's checkHtmlFilesInParallel shares the pages out to: it is sent
 * a list of page files, checks them with checkHtmlFiles and sends back what it found.
 */
import {checkHtmlFiles} from './htmlCheck';

process.once('message', (files: string[]) => {
  process.send?.(checkHtmlFiles(files), () => process.exit(0));
});
