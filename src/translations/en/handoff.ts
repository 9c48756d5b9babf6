/**
 * What the computer's panel says when a capture continues on a phone: fetched with the panel, so that
 * a widget that never shows it does not carry them. Every language file has them too.
 */
export const handoffPanelEnglish = {
  handoffScan: 'Scan this code with your phone’s camera, or open the link on your phone.',
  handoffQrLabel: 'QR code of the link {link}. Your phone will show the code {code}.',
  handoffCodeIs: 'Your phone will show the code',
  handoffLinkLabel: 'Link to open on your phone',
  handoffCopy: 'Copy link',
  handoffCopied: 'Link copied',
  handoffWaiting: 'Waiting for your phone…',
  handoffConnected: 'Phone connected. Follow the steps on your phone.',
  handoffCapturing: 'Your phone is capturing…',
  handoffCancelledThere: 'It was cancelled on your phone.',
  handoffExpired: 'This link has expired or was used already.',
  handoffNewLink: 'Make a new link',
  handoffBack: 'Back',
};

export type HandoffPanelStrings = typeof handoffPanelEnglish;
