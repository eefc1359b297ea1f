import { BertWordPieceTokenizer } from './bert-wordpiece-tokenizer';
import { assertLocalModelInstalled, DEFAULT_LOCAL_EMBEDDING_MODEL, LOCAL_EMBEDDING_MODELS } from './local-models';
import reference from './testdata/reference-token-ids.json';

/**
 * testdata/reference-token-ids.json was produced once with the reference implementation:
 *   python -m venv /tmp/v && /tmp/v/bin/pip install tokenizers
 *   t = tokenizers.Tokenizer.from_file('<models>/all-MiniLM-L6-v2-onnx-int8/tokenizer.json')
 *   t.no_padding(); t.enable_truncation(max_length=256); t.encode(text).ids
 * During development the same comparison was also run over every Unicode scalar value ("a"+c+"b")
 * and ~9,000 snippets of real source code and random Unicode, with zero differences.
 */

const TINY_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'get', '##user', '##by', '##id', 'user', '(', ')', 'cafe', '中', 'x'];

function tinyTokenizer(): BertWordPieceTokenizer {
  return new BertWordPieceTokenizer({
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((content, id) => ({ id, content, special: true, normalized: false })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'TemplateProcessing', single: [{ SpecialToken: { id: '[CLS]' } }, { Sequence: { id: 'A' } }, { SpecialToken: { id: '[SEP]' } }] },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i])) },
  });
}

const tokens = (t: BertWordPieceTokenizer, text: string, max = 64) => Array.from(t.encode(text, max)).map((id) => TINY_VOCAB[id]);

describe('BertWordPieceTokenizer (synthetic vocabulary)', () => {
  it('splits identifiers greedily into word pieces and isolates punctuation', () => {
    expect(tokens(tinyTokenizer(), 'getUserById(user)')).toEqual(['[CLS]', 'get', '##user', '##by', '##id', '(', 'user', ')', '[SEP]']);
  });

  it('lowercases, strips accents, isolates CJK and maps unknown words to [UNK]', () => {
    expect(tokens(tinyTokenizer(), 'CAFÉ中x zzz')).toEqual(['[CLS]', 'cafe', '中', 'x', '[UNK]', '[SEP]']);
  });

  it('keeps special tokens written in the text and truncates to maxLength', () => {
    expect(tokens(tinyTokenizer(), 'x[MASK]x')).toEqual(['[CLS]', 'x', '[MASK]', 'x', '[SEP]']);
    expect(tokens(tinyTokenizer(), 'x x x x x', 4)).toEqual(['[CLS]', 'x', 'x', '[SEP]']);
  });

  it('gives [CLS] [SEP] for empty and whitespace-only input', () => {
    expect(tokens(tinyTokenizer(), '')).toEqual(['[CLS]', '[SEP]']);
    expect(tokens(tinyTokenizer(), ' \t\n\u200b')).toEqual(['[CLS]', '[SEP]']);
  });

  it('refuses tokenizer.json files of other families', () => {
    expect(() => new BertWordPieceTokenizer({ model: { type: 'BPE', vocab: {} } })).toThrow(/WordPiece/);
  });
});

// all-mpnet-base-v2's layout: RobertaProcessing (<s> … </s>), a normalised <unk> and an lstrip <mask>
// among the added tokens. Expected ids are what the reference tokenizers 0.23.3 gives for this
// tokenizer.json (built in Python with the same vocabulary, truncation max_length=6, no padding).
const MPNET_STYLE_VOCAB = ['<s>', '<pad>', '</s>', '<unk>', '[UNK]', '<mask>', 'get', '##user', 'x', '(', ')', '<', '>', 'un', '##k', 's', '/', '[', ']'];
const addedToken = (content: string, id: number, over: { normalized?: boolean; lstrip?: boolean } = {}) => ({
  id, content, special: true, normalized: over.normalized ?? false, single_word: false, lstrip: over.lstrip ?? false, rstrip: false,
});

function mpnetStyleTokenizer(): BertWordPieceTokenizer {
  return new BertWordPieceTokenizer({
    added_tokens: [addedToken('<s>', 0), addedToken('<pad>', 1), addedToken('</s>', 2), addedToken('<unk>', 3, { normalized: true }), addedToken('[UNK]', 4), addedToken('<mask>', 5, { lstrip: true })],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'RobertaProcessing', sep: ['</s>', 2], cls: ['<s>', 0] },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(MPNET_STYLE_VOCAB.map((t, i) => [t, i])) },
  });
}

describe('BertWordPieceTokenizer (MPNet-style tokenizer.json, ids from the reference)', () => {
  it.each([
    ['getUser(x)', [0, 6, 7, 9, 8, 2]],
    ['x <mask> x', [0, 8, 5, 8, 2]],
    ['x<UNK>x', [0, 8, 3, 8, 2]],
    ['x<unk>x', [0, 8, 3, 8, 2]],
    ['x [UNK] x', [0, 8, 4, 8, 2]],
    ['</s>x<s>', [0, 2, 8, 0, 2]],
    ['zzz', [0, 4, 2]],
    ['x x x x x x x', [0, 8, 8, 8, 8, 2]],
  ])('%s', (text, ids) => {
    expect(Array.from(mpnetStyleTokenizer().encode(text, 6))).toEqual(ids);
  });
});

// No skip when the model is missing: every reference check then fails with LocalModelNotInstalledError,
// which names the missing file and `npm run models`.
describe('BertWordPieceTokenizer vs the reference tokenizer (all-MiniLM-L6-v2)', () => {
  let tokenizer: BertWordPieceTokenizer;
  beforeAll(() => {
    tokenizer = BertWordPieceTokenizer.fromFile(assertLocalModelInstalled(LOCAL_EMBEDDING_MODELS[DEFAULT_LOCAL_EMBEDDING_MODEL]).tokenizerPath);
  });

  it.each(reference.cases.map((c) => [JSON.stringify(c.text).slice(0, 60), c.text, c.ids] as const))(
    'matches the reference ids for %s',
    (_label, text, ids) => {
      expect(Array.from(tokenizer.encode(text, reference.maxLength))).toEqual(ids);
    },
  );
});
