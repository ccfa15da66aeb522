import assert from 'node:assert/strict';
import {test} from 'node:test';
import {
  drawnSource,
  estimatedTextWidth,
  sequenceLayout,
  sequenceTargetWidth,
  wrapLongWords,
} from '../../plugins/content/mermaid-diagrams/sequenceLayout';

const fiveLanes = ['participant A', 'participant B', 'participant C', 'participant D', 'actor E'].join('\n');

test('lanes are sized so the participants fit the docs column', () => {
  const layout = sequenceLayout(`sequenceDiagram\n${fiveLanes}\nA->>B: hi`);
  const width = Number(layout.width);
  assert.equal(layout.wrap, true);
  assert.ok(5 * width + 4 * Number(layout.actorMargin) + 2 * Number(layout.diagramMarginX) <= sequenceTargetWidth, `lane ${width}`);
  assert.ok(Number(sequenceLayout('sequenceDiagram\nparticipant A\nparticipant B').width) > width, 'fewer lanes, wider lanes');
});

test('a word wider than its lane is not broken: the message is pre-wrapped at spaces, no narrower than the word', () => {
  const text = ' V notifies BANK_TRANSFER.SUCCEEDED to the merchant';
  const wrapped = wrapLongWords(text, 100);
  const lines = wrapped.trim().split('<br/>');
  assert.ok(lines.includes('BANK_TRANSFER.SUCCEEDED'), wrapped);
  const widest = estimatedTextWidth('BANK_TRANSFER.SUCCEEDED');
  for (const line of lines) assert.ok(estimatedTextWidth(line) <= widest, line);
  assert.equal(wrapLongWords(' Short words only', 100), ' Short words only', 'left to Mermaid when every word fits');
});

test('only sequence diagrams get the layout directive; the source itself is kept', () => {
  const sequence = `sequenceDiagram\n${fiveLanes}\nA->>B: Sends ORDER.PAYMENT_FAILED now`;
  const drawn = drawnSource(sequence);
  assert.match(drawn, /^%%\{init: \{"fontSize":14,/);
  assert.match(drawn, /A->>B: Sends<br\/>ORDER\.PAYMENT_FAILED<br\/>now$/);
  assert.equal(drawnSource('stateDiagram-v2\n  [*] --> A'), 'stateDiagram-v2\n  [*] --> A');
});
