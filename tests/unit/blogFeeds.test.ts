/**
 * The blog's feeds name their own URL (issue 29, ecosystem review D13: blog/atom.xml lacked
 * `<link rel="self">`): plugins/content/blog adds it to what Docusaurus's blog plugin writes, and to
 * rss.xml the matching `<atom:link>`; npm run check:html fails a build whose feeds lack it.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {feedSelfLinkProblems, withAtomSelfLink, withRssSelfLink} from '../../plugins/content/blog';

// The head of each feed as the blog plugin (the `feed` package) writes it.
const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
    <id>https://developers.example.com/blog</id>
    <title>Veloxa Pay Blog</title>
    <link rel="alternate" href="https://developers.example.com/blog"/>
    <entry><title>A post</title><link href="https://developers.example.com/blog/a"/></entry>
</feed>
`;
const rss = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
    <channel>
        <title>Veloxa Pay Blog</title>
    </channel>
</rss>
`;
const selfAtom = 'https://developers.example.com/blog/atom.xml';

describe('Blog feeds: self links', () => {
  test('atom.xml gets <link rel="self"> after its alternate link, once', () => {
    const patched = withAtomSelfLink(atom, selfAtom);
    assert.match(
      patched,
      /<link rel="alternate" href="https:\/\/developers\.example\.com\/blog"\/>\n {4}<link rel="self" type="application\/atom\+xml" href="https:\/\/developers\.example\.com\/blog\/atom\.xml"\/>\n/,
    );
    assert.equal(withAtomSelfLink(patched, selfAtom), patched, 'a second pass adds nothing');
    assert.match(
      withAtomSelfLink('<feed xmlns="http://www.w3.org/2005/Atom">\n<id>x</id>\n</feed>', selfAtom),
      /<feed [^>]*>\n {4}<link rel="self"/,
    );
    assert.throws(() => withAtomSelfLink('<rss/>', selfAtom), /not an Atom feed/);
  });

  test('rss.xml gets <atom:link rel="self"> in its channel and the Atom namespace on <rss>', () => {
    const patched = withRssSelfLink(rss, 'https://developers.example.com/blog/rss.xml');
    assert.match(patched, /<rss version="2\.0" xmlns:dc="[^"]+" xmlns:atom="http:\/\/www\.w3\.org\/2005\/Atom">/);
    assert.match(
      patched,
      /<channel>\n {8}<atom:link href="https:\/\/developers\.example\.com\/blog\/rss\.xml" rel="self" type="application\/rss\+xml"\/>\n/,
    );
    assert.equal(withRssSelfLink(patched, 'x'), patched);
  });

  test('the check after the build finds a feed without its self link, and passes one with it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'feeds-'));
    try {
      const blogUrl = 'https://developers.example.com/blog';
      writeFileSync(path.join(dir, 'atom.xml'), atom);
      assert.deepEqual(feedSelfLinkProblems(dir, blogUrl), [`atom.xml has no self link to ${blogUrl}/atom.xml`, 'rss.xml is missing']);
      writeFileSync(path.join(dir, 'atom.xml'), withAtomSelfLink(atom, `${blogUrl}/atom.xml`));
      writeFileSync(path.join(dir, 'rss.xml'), withRssSelfLink(rss, `${blogUrl}/rss.xml`));
      assert.deepEqual(feedSelfLinkProblems(dir, blogUrl), []);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
});
