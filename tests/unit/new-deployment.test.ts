import { describe, expect, it } from 'vitest';
import { failedAssetUrl, isBuildAsset } from '../../src/client/newDeployment';

// Issue 6: which failed loads tell the page that a new build has replaced its own.

describe('isBuildAsset', () => {
  const origin = 'https://app.example';
  it('is true for the build’s own scripts and styles, with or without the deployment query', () => {
    expect(isBuildAsset('https://app.example/_next/static/chunks/0abc.js', origin)).toBe(true);
    expect(isBuildAsset('https://app.example/_next/static/chunks/0abc.js?dpl=abc123', origin)).toBe(true);
    expect(isBuildAsset('/_next/static/css/1.css', origin)).toBe(true);
  });
  it('is false for other paths, other origins and nothing', () => {
    expect(isBuildAsset('https://app.example/_next/image?url=%2Fhero.png&w=640&q=75', origin)).toBe(false);
    expect(isBuildAsset('https://app.example/api/health', origin)).toBe(false);
    expect(isBuildAsset('https://cdn.other.example/_next/static/chunks/0abc.js', origin)).toBe(false);
    expect(isBuildAsset(undefined, origin)).toBe(false);
  });
});

describe('failedAssetUrl', () => {
  it('ignores targets that are not scripts or stylesheets (here, outside a browser)', () => {
    expect(failedAssetUrl(null)).toBeUndefined();
    expect(failedAssetUrl({} as EventTarget)).toBeUndefined();
  });
});
