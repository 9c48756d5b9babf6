'use client';
/**
 * The React component for `<voice-verify>` alone (`verify-widgets/react/voice-verify`), so that an app showing
 * only this widget carries only it. A client component: importing it registers the element.
 */
import * as React from 'react';
import { createComponent } from '@lit/react';
import { VoiceVerify as Element } from '../voice-verify/define.js';
import { biometricEvents } from './events.js';

export const VoiceVerify = createComponent({ tagName: 'voice-verify', elementClass: Element, react: React, events: biometricEvents });
