/**
 * Keys of the payment sandbox and of the merchant that talks to it. The sandbox plays WeChat Pay's and
 * Alipay's servers with its own key pairs; the merchant side gets the matching public keys, exactly as a
 * merchant gets them from the real platforms.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export interface SandboxKeys {
  wechat: {
    mchid: string;
    appid: string;
    /** The merchant's API key pair (the merchant signs with the private key, the sandbox verifies). */
    merchantSerial: string;
    merchantPrivateKey: string;
    merchantPublicKey: string;
    /** The platform key pair (the sandbox signs answers and notices; the merchant verifies). */
    platformSerial: string;
    platformPrivateKey: string;
    platformPublicKey: string;
    apiV3Key: string;
  };
  alipay: {
    appId: string;
    appPrivateKey: string;
    appPublicKey: string;
    alipayPrivateKey: string;
    alipayPublicKey: string;
  };
}

function rsaPair(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

const serial = () => randomBytes(20).toString('hex').toUpperCase();

export function generateSandboxKeys(): SandboxKeys {
  const merchant = rsaPair();
  const platform = rsaPair();
  const app = rsaPair();
  const ali = rsaPair();
  return {
    wechat: {
      mchid: '1900000109',
      appid: 'wxsandbox0000001',
      merchantSerial: serial(),
      merchantPrivateKey: merchant.privateKey,
      merchantPublicKey: merchant.publicKey,
      platformSerial: `PUB_KEY_ID_${serial()}`,
      platformPrivateKey: platform.privateKey,
      platformPublicKey: platform.publicKey,
      apiV3Key: randomBytes(16).toString('hex'),
    },
    alipay: {
      appId: '2021000000000001',
      appPrivateKey: app.privateKey,
      appPublicKey: app.publicKey,
      alipayPrivateKey: ali.privateKey,
      alipayPublicKey: ali.publicKey,
    },
  };
}
