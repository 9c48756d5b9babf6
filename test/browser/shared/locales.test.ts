/**
 * Languages by registration: English is built in, Arabic arrives with its import (here, part way
 * through, as a page that loads it late), and a site's own language fills what it has over English.
 * This file must not import the Arabic locale before its first test.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { registerLocale } from '../../../src/internal/localize.js';
import '../../../src/otp-verify/define.js';
import '../../../src/face-verify/define.js';
import type { OtpVerify } from '../../../src/otp-verify/otp-verify.js';
import type { FaceVerify } from '../../../src/face-verify/face-verify.js';
import { partOf, widgetFixture } from '../support/widget.js';
import { fakeHost, sent } from '../support/fake-host.js';
import { sendTo } from '../support/otp.js';

const heading = (element: HTMLElement) => element.shadowRoot!.querySelector('[part~="heading"]')!.textContent!.trim();
const submit = (element: OtpVerify) => partOf(element, 'submit').textContent!.trim();

describe('languages by registration', () => {
  it('speaks English in an Arabic page until Arabic is registered, then Arabic at once, right to left', async () => {
    const element = await widgetFixture<OtpVerify>('otp-verify', '', 'ar');
    expect(heading(element)).to.equal('Verify it’s you');
    await import('../../../src/locales/ar.js');
    await element.updateComplete;
    expect(heading(element)).to.equal('تأكيد هويتك');
    expect(submit(element)).to.equal('أرسل الرمز');
    expect(partOf(element, 'base').getAttribute('dir')).to.equal('rtl');
  });

  it('the registered language reaches each widget with its own strings, and a regional tag falls back to it', async () => {
    const face = await widgetFixture<FaceVerify>('face-verify', '', 'ar-SA');
    expect(heading(face)).to.equal('التحقق بصورة شخصية');
  });

  it('a site’s own language: what it gives, and English for what it leaves out; an instance override wins', async () => {
    registerLocale('de', { contactHeading: 'Bestätigen Sie, dass Sie es sind' });
    const element = await widgetFixture<OtpVerify>('otp-verify', '', 'de-AT');
    expect(heading(element)).to.equal('Bestätigen Sie, dass Sie es sind');
    expect(submit(element)).to.equal('Send code');
    element.strings = { contactHeading: 'Bonjour' };
    await element.updateComplete;
    expect(heading(element)).to.equal('Bonjour');
    expect(partOf(element, 'base').getAttribute('dir')).to.equal('ltr');
  });

  it('Urdu and Persian are right to left like Arabic; a language nobody registered is English, left to right', async () => {
    await import('../../../src/locales/ur.js');
    await import('../../../src/locales/fa.js');
    // Only a lang, as most pages have: the direction is the widget's to find.
    const inPage = async (lang: string) => {
      const element = (await fixture<HTMLDivElement>(html`<div lang=${lang}><otp-verify endpoint="/host"></otp-verify></div>`)).firstElementChild as OtpVerify;
      await element.updateComplete;
      return element;
    };
    const [urdu, persian, unknown] = [await inPage('ur-PK'), await inPage('fa'), await inPage('xx')];
    expect([heading(urdu), heading(persian), heading(unknown)]).to.deep.equal(['تصدیق کریں کہ یہ آپ ہیں', 'تأیید هویت شما', 'Verify it’s you']);
    expect([urdu, persian, unknown].map((e) => partOf(e, 'base').getAttribute('dir'))).to.deep.equal(['rtl', 'rtl', 'ltr']);
  });

  it('a phone number reads left to right in Arabic, Urdu and Persian sentences, its + first', async () => {
    await import('../../../src/locales/ar.js');
    const host = fakeHost({ 'send-otp': () => sent() });
    try {
      for (const lang of ['ar', 'ur', 'fa']) {
        const element = (await fixture<HTMLDivElement>(html`<div lang=${lang}><otp-verify endpoint="/host" country="SA"></otp-verify></div>`)).firstElementChild as OtpVerify;
        await sendTo(element);
        const walker = document.createTreeWalker(element.shadowRoot!.querySelector('[part~="message"] bdi')!, NodeFilter.SHOW_TEXT);
        let number = walker.nextNode() as Text;
        while (number && !number.data.includes('+')) number = walker.nextNode() as Text;
        // Where each character is drawn: the + leftmost, the last digit rightmost.
        const x = (offset: number) => {
          const range = document.createRange();
          range.setStart(number, offset);
          range.setEnd(number, offset + 1);
          return range.getBoundingClientRect().left;
        };
        const [plus, last] = [number.data.indexOf('+'), number.data.search(/\d[^\d]*$/)];
        expect(plus, `${lang}: ${JSON.stringify(number.data)}`).to.be.at.least(0);
        expect(x(plus), `${lang}: the + is left of the last digit`).to.be.below(x(last));
        expect(x(plus + 1), `${lang}: the country code's first digit is left of the last digit`).to.be.below(x(last));
      }
    } finally {
      host.stop();
    }
  });

  it('Persian digits in Persian, and Latin ones where the page asks for them with -u-nu-latn', async () => {
    const host = fakeHost({ 'send-otp': () => sent() });
    try {
      const texts = [];
      for (const lang of ['fa', 'fa-u-nu-latn']) {
        const element = (await fixture<HTMLDivElement>(html`<div lang=${lang}><otp-verify endpoint="/host" country="SA"></otp-verify></div>`)).firstElementChild as OtpVerify;
        await sendTo(element);
        texts.push(element.shadowRoot!.textContent!.replace(/\s+/g, ' '));
      }
      expect(texts[0]).to.contain('۶ رقم').and.contain('۰:۳۰');
      expect(texts[1]).to.contain('6 رقم').and.contain('0:30');
    } finally {
      host.stop();
    }
  });
});
