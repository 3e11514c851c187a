/** Inline SVG icons (no icon font, nothing to download). */
const PATHS = {
  search:
    "M11 4a7 7 0 1 0 4.4 12.4l4.1 4.1 1.4-1.4-4.1-4.1A7 7 0 0 0 11 4Zm0 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10Z",
  news: "M4 4h13v15a1 1 0 0 0 2 0V8h2v11a3 3 0 0 1-3 3H5a3 3 0 0 1-3-3V4h2Zm2 2v13a1 1 0 0 1-.2.6L5.6 20H15V6H6Zm1 2h7v4H7V8Zm0 6h7v1.5H7V14Zm0 3h7v1.5H7V17Z",
  user: "M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5Z",
  back: "M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z",
  quotes: "M3 17h2v4H3zm4-5h2v9H7zm4 2h2v7h-2zm4-7h2v14h-2zm4-4h2v18h-2z",
  trade: "M7 3 3 7l4 4V8h10V6H7V3Zm10 10v3H7v2h10v3l4-4-4-4Z",
  order: "M6 2h9l5 5v15H6V2Zm8 1.5V8h4.5M9 12h8v-1.5H9V12Zm0 4h8v-1.5H9V16Z",
  documentary:
    "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm7 0a3 3 0 1 0 0-6v6Zm-7 2c-3.3 0-6 1.8-6 4v3h12v-3c0-2.2-2.7-4-6-4Zm8 0h-1.2a5 5 0 0 1 1.2 4v3h4v-3c0-2-1.8-3.6-4-4Z",
  rank: "M7 4h10v3a5 5 0 0 1-4 4.9V15h3v2H8v-2h3v-3.1A5 5 0 0 1 7 7V4Zm-4 1h3v2a3 3 0 0 1-3-3V5Zm15 0h3v0a3 3 0 0 1-3 3V5ZM6 19h12v2H6z",
  globe:
    "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm6.9 9h-3a15.6 15.6 0 0 0-1.3-6.1A8 8 0 0 1 18.9 11ZM12 4c.9 1.3 1.8 3.8 1.9 7h-3.8c.1-3.2 1-5.7 1.9-7ZM9.4 4.9A15.6 15.6 0 0 0 8.1 11h-3a8 8 0 0 1 4.3-6.1ZM5.1 13h3a15.6 15.6 0 0 0 1.3 6.1A8 8 0 0 1 5.1 13Zm6.9 7c-.9-1.3-1.8-3.8-1.9-7h3.8c-.1 3.2-1 5.7-1.9 7Zm2.6-.9a15.6 15.6 0 0 0 1.3-6.1h3a8 8 0 0 1-4.3 6.1Z",
  eye: "M12 5C6.5 5 2.7 9.3 1.5 12c1.2 2.7 5 7 10.5 7s9.3-4.3 10.5-7C21.3 9.3 17.5 5 12 5Zm0 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8Zm0-2a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z",
  eyeOff:
    "M3.3 2 2 3.3l3.2 3.2C3.4 7.9 2.1 9.9 1.5 12c1.2 2.7 5 7 10.5 7 1.9 0 3.6-.5 5.1-1.3l3.6 3.6 1.3-1.3L3.3 2ZM12 17a5 5 0 0 1-4.6-6.9l1.6 1.6a3 3 0 0 0 3.3 3.3l1.6 1.6c-.6.3-1.2.4-1.9.4Zm0-12c-1.3 0-2.5.2-3.6.6l1.8 1.8A5 5 0 0 1 17 12c0 .6-.1 1.2-.3 1.8l2.8 2.8c1.4-1.2 2.4-2.9 3-4.6C21.3 9.3 17.5 5 12 5Z",
  chevron: "M8.6 5.4 10 4l8 8-8 8-1.4-1.4 6.6-6.6z",
  settings:
    "M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.6 7.6 0 0 0-1.7-1L15 3h-4l-.4 2.7a7.6 7.6 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.6 7.6 0 0 0 1.7 1L11 21h4l.4-2.7a7.6 7.6 0 0 0 1.7-1l2.5 1 2-3.5-2.2-1.8ZM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7Z",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({
  name,
  size = 22,
  className,
}: {
  name: IconName;
  size?: number;
  className?: string;
}) {
  return (
    <svg
      className={className ? `icon ${className}` : "icon"}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
