import { verify } from '../../../../lib/verify';

export const GET = verify;
export const POST = verify;
