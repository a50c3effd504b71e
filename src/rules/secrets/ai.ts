import type { RuleDef } from '../types.js';
import { kTokenBoundary } from './fragments.js';
import { kAlnum, kBase64Url, kLetters, synth, tok } from './samples.js';

// OpenAI keys carry the base64 of "openai" (`T3BlbkFJ`) between two random halves.
const openaiProj = tok('sk-proj-', `${synth('oa-1', 74, kBase64Url)}T3BlbkFJ${synth('oa-2', 74, kBase64Url)}`);
const openaiSvc = tok('sk-svcacct-', `${synth('oa-3', 58, kBase64Url)}T3BlbkFJ${synth('oa-4', 58, kBase64Url)}`);
const openaiLegacy = tok('sk-', `${synth('oa-5', 20)}T3BlbkFJ${synth('oa-6', 20)}`);
const anthropic = tok('sk-ant-api03-', `${synth('ant-1', 93, kBase64Url)}AA`);
const anthropicAdmin = tok('sk-ant-admin01-', `${synth('ant-2', 93, kBase64Url)}AA`);
const hf = tok('hf_', synth('hf-1', 34, kLetters));
const hf2 = tok('hf_', synth('hf-2', 34, kLetters));
const groq = tok('gsk_', synth('groq-1', 52, kAlnum));
const groq2 = tok('gsk_', synth('groq-2', 52, kAlnum));

export const aiRules: readonly RuleDef[] = [
  {
    id: 'openai-api-key',
    description: 'OpenAI API key (project, service-account, admin or legacy user key with the T3BlbkFJ marker).',
    family: 'secrets',
    tags: ['openai'],
    enabledByDefault: true,
    trigger: { keywords: ['T3BlbkFJ'], next: 'A-Za-z0-9_-' },
    // `sk-` + optional kind (`proj-`, `svcacct-`, `admin-`, `None-`) + random + marker + random.
    pattern: 'sk-[A-Za-z0-9_-]{20,100}T3BlbkFJ[A-Za-z0-9_-]{20,100}',
    maxLength: 211,
    // `sk-`, then at most 100 characters, come before the `T3BlbkFJ` marker, the trigger.
    lead: 103,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `OPENAI_API_KEY=${openaiProj}`, match: openaiProj },
        { text: `{"key":"${openaiSvc}"}`, match: openaiSvc },
        { text: `Authorization: Bearer ${openaiLegacy}`, match: openaiLegacy },
      ],
      negative: [
        { text: `OPENAI_API_KEY=sk-${synth('oa-7', 48)}` },
        { text: 'OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxT3BlbkFJxxxxxxxxxxxxxxxxxxxx' },
        { text: `task-${openaiLegacy.slice(3)}` },
        { text: `T3BlbkFJ alone in base64: ${synth('oa-8', 30)}T3BlbkFJ${synth('oa-9', 30)}` },
      ],
    },
  },
  {
    id: 'anthropic-api-key',
    description: 'Anthropic API or Admin API key (sk-ant-api03-…AA, sk-ant-admin01-…AA).',
    family: 'secrets',
    tags: ['anthropic'],
    enabledByDefault: true,
    trigger: { keywords: ['sk-ant-'], next: 'a' },
    pattern: 'sk-ant-(?:api03|admin01)-[A-Za-z0-9_-]{93}AA',
    maxLength: 110,
    // The key starts with its prefix, the trigger.
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3.5,
    examples: {
      positive: [
        { text: `ANTHROPIC_API_KEY=${anthropic}`, match: anthropic },
        { text: `x-api-key: ${anthropicAdmin}`, match: anthropicAdmin },
      ],
      negative: [
        { text: `ANTHROPIC_API_KEY=${anthropic.slice(0, -2)}AB` },
        { text: `ANTHROPIC_API_KEY=${anthropic.slice(0, -3)}AA` },
        { text: 'ANTHROPIC_API_KEY=sk-ant-api03-...' },
        { text: `ANTHROPIC_API_KEY=sk-ant-api02-${synth('ant-1', 93, kBase64Url)}AA` },
      ],
    },
  },
  {
    id: 'huggingface-token',
    description: 'Hugging Face user access token (hf_ followed by 34 letters).',
    family: 'secrets',
    tags: ['huggingface'],
    enabledByDefault: true,
    trigger: { keywords: ['hf_'], next: 'A-Za-z' },
    pattern: 'hf_[A-Za-z]{34}',
    maxLength: 37,
    boundary: { left: 'A-Za-z0-9_', right: 'A-Za-z0-9_' },
    minEntropy: 3.5,
    // Tokens mix upper and lower case; snake_case identifiers that happen to start with `hf_` do not.
    validate: (v) => /[A-Z]/.test(v) && /[a-z]/.test(v.slice(3)),
    examples: {
      positive: [
        { text: `HF_TOKEN=${hf}`, match: hf },
        { text: `headers = {"Authorization": "Bearer ${hf2}"}`, match: hf2 },
      ],
      negative: [
        { text: 'def hf_downloadmodelweightsfromthehubcache(): pass' },
        { text: `HF_TOKEN=${hf.slice(0, 36)}` },
        { text: `HF_TOKEN=${hf}9` },
        { text: `HF_TOKEN=hf_${'x'.repeat(34)}` },
      ],
    },
  },
  {
    id: 'groq-api-key',
    description: 'Groq API key (gsk_ followed by 52 alphanumerics).',
    family: 'secrets',
    tags: ['groq'],
    enabledByDefault: true,
    trigger: { keywords: ['gsk_'], next: 'A-Za-z0-9' },
    pattern: 'gsk_[A-Za-z0-9]{52}',
    maxLength: 56,
    boundary: { left: 'A-Za-z0-9_', right: 'A-Za-z0-9_' },
    minEntropy: 4,
    examples: {
      positive: [
        { text: `GROQ_API_KEY=${groq}`, match: groq },
        { text: `{"groq":"${groq2}"}`, match: groq2 },
      ],
      negative: [
        { text: `GROQ_API_KEY=${groq.slice(0, 55)}` },
        { text: `GROQ_API_KEY=${groq}Z` },
        { text: `GROQ_API_KEY=gsk_${'x'.repeat(52)}` },
      ],
    },
  },
];
