'use client';
/**
 * The React component for `<otp-verify>` alone (`verify-widgets/react/otp-verify`), so that an app showing
 * only this widget carries only it. A client component: importing it registers the element.
 */
import * as React from 'react';
import { createComponent } from '@lit/react';
import { OtpVerify as Element } from '../otp-verify/define.js';
import { otpEvents } from './events.js';

export const OtpVerify = createComponent({ tagName: 'otp-verify', elementClass: Element, react: React, events: otpEvents });
