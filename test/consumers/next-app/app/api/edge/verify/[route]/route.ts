import { createVerifyHandler } from 'verify-widgets/server';
import { options } from '../../../../../lib/verify';

// The same handler on Next's edge runtime, which refuses any Node module at build time.
export const runtime = 'edge';
const verify = createVerifyHandler(() => options('/api/edge/verify'));

export const GET = verify;
export const POST = verify;
