/**
 * The public API's operations as TypeScript types. GENERATED from docs/public-api.json by
 * packages/client/scripts/generate.ts (openapi-typescript): do not edit; run `npm run generate -w @mocap/client`.
 */
/* biome-ignore-all format: generated */
/* biome-ignore-all lint: generated */

export interface paths {
    "/product/auth/company/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The logged-in company account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                company: {
                                    cvCoin: number;
                                    email: string;
                                    vexpiredAt: number | null;
                                };
                                isPursh: 0 | 1;
                                roles: string[];
                                skuRole: {
                                    isMonthly: boolean;
                                    isYear: boolean;
                                };
                                uploadCount: number;
                                user: {
                                    address: string | null;
                                    beta: boolean;
                                    blackFlag: boolean;
                                    company: string | null;
                                    contact: string | null;
                                    createdAt: number;
                                    /** @description CV coins (company) */
                                    cvCoin: number;
                                    email: string;
                                    /** @description wants e-mail notices */
                                    emailNotice: boolean;
                                    enabled: boolean;
                                    extensionStaff: boolean;
                                    id: number;
                                    inviteCode: string;
                                    ip: string | null;
                                    isPursh: 0 | 1;
                                    lastLoginAt: number | null;
                                    /**
                                     * @description plan in force (an expired plan reads free)
                                     * @enum {string}
                                     */
                                    level: "free" | "monthly" | "yearly";
                                    phone: string | null;
                                    /** @description the login before the current one (shown to the user as "last login"); null: first login */
                                    previousLoginAt?: number | null;
                                    referralCount: number;
                                    roles: string[];
                                    /** @description V coins */
                                    surplus: number;
                                    teachingConfirmed: boolean;
                                    testFlag: boolean;
                                    /** @description 1 individual, 2 company */
                                    type: number;
                                    uploadCount: number;
                                    username: string;
                                    /** @description plan expiry, epoch ms */
                                    vexpiredAt: number | null;
                                };
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/company/emailNotice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which e-mails the company gets */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                /** @description e-mails on at all */
                                emailNotice: boolean;
                                failed: boolean;
                                lowBalance: boolean;
                                lowBalanceThreshold: number;
                                made: boolean;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        /** Choose the e-mails: job made, job failed, low CV balance (and its threshold), or all off */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description every e-mail notice of the account on/off (the original switch) */
                        enabled?: boolean;
                        /** @description e-mail when a video failed */
                        failed?: boolean;
                        /** @description e-mail when the CV balance falls below lowBalanceThreshold */
                        lowBalance?: boolean;
                        /** @description CV coins */
                        lowBalanceThreshold?: number;
                        /** @description e-mail when a video is made */
                        made?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                /** @description e-mails on at all */
                                emailNotice: boolean;
                                failed: boolean;
                                lowBalance: boolean;
                                lowBalanceThreshold: number;
                                made: boolean;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/company/surplus/record": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** CV coin records of the company account, newest first */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description epoch ms, inclusive */
                        from?: number;
                        /** @default 1 */
                        page?: number;
                        reason?: string;
                        /** @default 20 */
                        size?: number;
                        /** @description epoch ms, exclusive */
                        to?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                balance: number;
                                list: {
                                    /** @description positive: credit, negative: debit */
                                    amount: number;
                                    balanceAfter: number;
                                    createdAt: number;
                                    /** @enum {string} */
                                    currency: "V" | "CV";
                                    id: number;
                                    note: string | null;
                                    reason: string;
                                    ref: string;
                                    userId: number;
                                }[];
                                page: number;
                                size: number;
                                total: number;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/cos/sts/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Temporary credentials to upload one MP4 directly to storage
         * @description PUT the bytes to `uploadUrl` with `headers`, then confirm with POST /video/uploads {sessionToken, name, boneType, ...}. Valid 1800 s. Fetch new ones for every upload. With S3 and an STS service, `sts` also holds temporary S3 credentials allowing PutObject on exactly `key` (same lifetime).
         */
        get: {
            parameters: {
                query?: {
                    fileName?: string;
                    size?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                bucket: string;
                                credentials: {
                                    sessionToken: string;
                                    tmpSecretId: string;
                                    tmpSecretKey: string;
                                };
                                /** @description unix seconds */
                                expiredTime: number;
                                headers: {
                                    [key: string]: string;
                                };
                                key: string;
                                maxBytes: number;
                                /** @enum {string} */
                                method: "PUT";
                                region: string;
                                /** @description unix seconds */
                                startTime: number;
                                /** @description Real temporary S3 credentials from STS AssumeRole, limited by a session policy; null where the store offers no STS (local disk; S3 without S3_STS_ENDPOINT), where the pre-signed URLs are the way in */
                                sts: {
                                    accessKeyId: string;
                                    bucket: string;
                                    /** @description the S3 endpoint; empty for AWS */
                                    endpoint: string;
                                    /** @description unix seconds */
                                    expiredTime: number;
                                    region: string;
                                    /** @description the bucket key (or key prefix ending in *) the session policy allows */
                                    resource: string;
                                    secretAccessKey: string;
                                    sessionToken: string;
                                } | null;
                                uploadUrl: string;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/cos/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Direct upload target of local storage (the uploadUrl of /cos/sts/upload) */
        put: {
            parameters: {
                query: {
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                key: string;
                                size: number;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/motion/boneTypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Bone types: main format, whether a free plan may choose it, what it needs (OnlyFace: face capture) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                format: string;
                                free: boolean;
                                name: string;
                                /** @enum {string|null} */
                                needs: "face" | null;
                            }[];
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/motion/download/{bodyType}/{id}/{boneType}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * DownLoadMotion(bodyType, id, boneType): signed URL of one bone type’s zip
         * @description bodyType `video` (or `body`). Own videos are free; a square video costs a non-owner 1 V per second, once. Free accounts: FBX bone types only.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    bodyType: string;
                    boneType: "Unreal4" | "Unreal5.5" | "Unreal5.6" | "Mixamo" | "C4D" | "CC&iClone" | "RobloxR15" | "BIP" | "bvh" | "VMD-TDA" | "OnlyFace" | "UnityAnim" | "BoyFBX" | "GirlFBX" | "CS";
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                bonetype: string;
                                /** @description V coins charged by this call */
                                charged: number;
                                /** @description seconds the URLs stay valid */
                                expiresIn: number;
                                /** @description file name of the zip */
                                motionsName: string;
                                name: string;
                                /** @description signed, expiring download URLs */
                                paths: string[];
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/motion/video/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a video offers: the bone types made, sizes, whether my plan allows each */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                boneType: string;
                                fps: number | null;
                                frameCount: number | null;
                                id: number;
                                status: number;
                                warnings: string[];
                                zips: {
                                    allowed: boolean;
                                    boneType: string;
                                    fileName: string;
                                    format: string;
                                    size: number;
                                }[];
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/center": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** My projects, newest first (paginated, filterable) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        categoryId?: number;
                        from?: number;
                        keyword?: string;
                        /** @default 1 */
                        page?: number;
                        /** @default 20 */
                        size?: number;
                        /** @enum {string} */
                        sort?: "new" | "old" | "downloads" | "collects";
                        status?: number[];
                        tag?: string;
                        to?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                list: components["schemas"]["Video"][];
                                page: number;
                                size: number;
                                total: number;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/center/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of my videos */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                deleted: number[];
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/checkWaiting/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Status, progress and queue position of my video */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                id: number;
                                position: number | null;
                                progress: number;
                                status: number;
                                statusName: string;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/progress/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live progress of my video (Server-Sent Events; EventSource may pass ?token=)
         * @description Events: `progress` {id, status, statusName, progress, position} whenever something changes, then `done` with the final state (made or failed). A comment line every 15 s keeps proxies from closing the stream.
         */
        get: {
            parameters: {
                query?: {
                    token?: string;
                };
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/queryVideoById": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One video (mine, or a square video) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: components["schemas"]["VideoDetail"];
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload one MP4 (multipart/form-data: file + name, boneType, categoryId and/or tags, ...)
         * @description Streamed to a temp file with the plan size limit, then checked by content (ffprobe): MP4 only, size, duration, picture size, queue limit, duplicate. Charges 1 V per second (company: 1 CV) with the video row in one transaction and queues the capture. Optional solve options (text fields): smoothing 0..1, footLock auto|always|never|grounding, rootAtOrigin true|false, height (metres, 0.5..3; empty = as measured); stored with the video and used by every solve of it.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description any 1-128 visible ASCII characters: a retry with the same key answers the first result and is charged once */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: components["schemas"]["Video"];
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm a direct-to-storage upload (after GET /cos/sts/upload and the PUT to uploadUrl)
         * @description Same checks, charge and capture as /video/upload; the uploaded object is removed from the upload area afterwards. With an `Idempotency-Key` header a retry answers the first result (charged once).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description any 1-128 visible ASCII characters: a retry with the same key answers the first result and is charged once */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description bone type (free accounts: FBX bone types only)
                         * @enum {string}
                         */
                        boneType: "Unreal4" | "Unreal5.5" | "Unreal5.6" | "Mixamo" | "C4D" | "CC&iClone" | "RobloxR15" | "BIP" | "bvh" | "VMD-TDA" | "OnlyFace" | "UnityAnim" | "BoyFBX" | "GirlFBX" | "CS";
                        /** @enum {string} */
                        captureType?: "body" | "hands" | "face" | "full";
                        categoryId?: number | null;
                        description?: string;
                        fileName?: string;
                        /**
                         * @description foot locking mode
                         * @enum {string}
                         */
                        footLock?: "auto" | "always" | "never" | "grounding";
                        /** @description the performer's height in metres (0.5..3); null = as measured */
                        height?: number | null;
                        /** @description title, at most 15 characters */
                        name: string;
                        /** @description keep the hips over the origin */
                        rootAtOrigin?: boolean;
                        /** @description credentials.sessionToken from /cos/sts/upload */
                        sessionToken: string;
                        /** @description temporal smoothing strength 0..1 (0 = none) */
                        smoothing?: number;
                        /** @description tags (no comma inside a tag); category or tag is required */
                        tags?: (string[] | string) | null;
                        titleInSquare?: string | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: components["schemas"]["Video"];
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/product/video/videoRedo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remake: capture again (a free remake, or paid: 1 V per 2 s rounded up to a multiple of 2 s)
         * @description Without `paid` a free remake is used; when none is left the answer is 307 您的视频免费制作次数已用完 and the client may confirm a paid remake. Solve options sent (smoothing, footLock, rootAtOrigin, height; null height = as measured) replace the stored ones; the others are kept.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        boneType?: "Unreal4" | "Unreal5.5" | "Unreal5.6" | "Mixamo" | "C4D" | "CC&iClone" | "RobloxR15" | "BIP" | "bvh" | "VMD-TDA" | "OnlyFace" | "UnityAnim" | "BoyFBX" | "GirlFBX" | "CS";
                        /** @enum {string} */
                        captureType?: "body" | "hands" | "face" | "full";
                        /**
                         * @description foot locking mode
                         * @enum {string}
                         */
                        footLock?: "auto" | "always" | "never" | "grounding";
                        /** @description the performer's height in metres (0.5..3); null = as measured */
                        height?: number | null;
                        id: number;
                        paid?: boolean;
                        /** @description keep the hips over the origin */
                        rootAtOrigin?: boolean;
                        /** @description temporal smoothing strength 0..1 (0 = none) */
                        smoothing?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description 0 on success */
                            code: number;
                            data: {
                                /** @description the bone type chosen at upload (spec §1 display names) */
                                boneType: string;
                                /** @description body | hands | face | full */
                                captureType: string;
                                category: number | null;
                                charged: number;
                                collectCount: number;
                                /** @description epoch ms */
                                createAt: number;
                                creatorId: number;
                                creatorName: string;
                                description: string;
                                downloadCount: number;
                                /** @description seconds */
                                duration: number;
                                error: string | null;
                                /** @description file family of the bone type: fbx, vmd, anim, bip, bvh, csm */
                                format: string;
                                fps: number;
                                /** @description free remakes left */
                                freeRemakes: number;
                                height: number;
                                id: number;
                                /** @description 1 when shared on the square */
                                inSquare: number;
                                /** @description the capture's judgement of the current result (issue 15.3); null before a judged result exists */
                                judgement: components["schemas"]["VideoJudgement"] | null;
                                md5: string;
                                /** @description title (at most 15 characters) */
                                name: string;
                                /** @description signed URL of the uploaded video (owner, or a square video) */
                                path: string | null;
                                /** @description V coins a non-owner pays to download it from the square */
                                price: number;
                                /** @description 0..100 */
                                progress: number;
                                remakeCount: number;
                                /** @description 2D repairs */
                                repairCount: number;
                                serialNumber: string;
                                /** @description bytes */
                                size: number;
                                /** @description how the motion is solved (owner only; null for others) */
                                solveOptions: components["schemas"]["SolveOptions"] | null;
                                /** @description 0 not made, 1 in progress, 2 made, 3 failed */
                                status: number;
                                statusName: string;
                                tags: string[];
                                /** @description signed URL of the card thumbnail (JPEG) */
                                thumbnail: string | null;
                                titleInSquare: string | null;
                                width: number;
                            };
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        SolveOptions: {
            /**
             * @description foot locking: auto (default), always, never, grounding
             * @enum {string}
             */
            footLock: "auto" | "always" | "never" | "grounding";
            /** @description the performer's standing height in metres; null = as measured */
            height: number | null;
            /** @description keep the hips over the origin (vertical motion kept) */
            rootAtOrigin: boolean;
            /** @description temporal smoothing strength 0..1 (0 = none; default 0.5) */
            smoothing: number;
        };
        Video: {
            /** @description the bone type chosen at upload (spec §1 display names) */
            boneType: string;
            /** @description body | hands | face | full */
            captureType: string;
            category: number | null;
            collectCount: number;
            /** @description epoch ms */
            createAt: number;
            creatorId: number;
            creatorName: string;
            description: string;
            downloadCount: number;
            /** @description seconds */
            duration: number;
            error: string | null;
            /** @description file family of the bone type: fbx, vmd, anim, bip, bvh, csm */
            format: string;
            fps: number;
            /** @description free remakes left */
            freeRemakes: number;
            height: number;
            id: number;
            /** @description 1 when shared on the square */
            inSquare: number;
            /** @description the capture's judgement of the current result (issue 15.3); null before a judged result exists */
            judgement: components["schemas"]["VideoJudgement"] | null;
            md5: string;
            /** @description title (at most 15 characters) */
            name: string;
            /** @description signed URL of the uploaded video (owner, or a square video) */
            path: string | null;
            /** @description V coins a non-owner pays to download it from the square */
            price: number;
            /** @description 0..100 */
            progress: number;
            remakeCount: number;
            /** @description 2D repairs */
            repairCount: number;
            serialNumber: string;
            /** @description bytes */
            size: number;
            /** @description how the motion is solved (owner only; null for others) */
            solveOptions: components["schemas"]["SolveOptions"] | null;
            /** @description 0 not made, 1 in progress, 2 made, 3 failed */
            status: number;
            statusName: string;
            tags: string[];
            /** @description signed URL of the card thumbnail (JPEG) */
            thumbnail: string | null;
            titleInSquare: string | null;
            width: number;
        };
        VideoDetail: {
            /** @description the bone type chosen at upload (spec §1 display names) */
            boneType: string;
            /** @description body | hands | face | full */
            captureType: string;
            category: number | null;
            collectCount: number;
            collected: boolean;
            /** @description epoch ms */
            createAt: number;
            creatorId: number;
            creatorName: string;
            description: string;
            downloadCount: number;
            /** @description seconds */
            duration: number;
            error: string | null;
            /** @description file family of the bone type: fbx, vmd, anim, bip, bvh, csm */
            format: string;
            fps: number;
            /** @description free remakes left */
            freeRemakes: number;
            height: number;
            id: number;
            /** @description 1 when shared on the square */
            inSquare: number;
            /** @description the capture's judgement of the current result (issue 15.3); null before a judged result exists */
            judgement: components["schemas"]["VideoJudgement"] | null;
            md5: string;
            /** @description title (at most 15 characters) */
            name: string;
            /** @description signed URL of the uploaded video (owner, or a square video) */
            path: string | null;
            /** @description jobs ahead in the queue (0 = next), null when not waiting */
            position: number | null;
            /** @description V coins a non-owner pays to download it from the square */
            price: number;
            /** @description 0..100 */
            progress: number;
            remakeCount: number;
            /** @description 2D repairs */
            repairCount: number;
            serialNumber: string;
            /** @description bytes */
            size: number;
            /** @description how the motion is solved (owner only; null for others) */
            solveOptions: components["schemas"]["SolveOptions"] | null;
            /** @description 0 not made, 1 in progress, 2 made, 3 failed */
            status: number;
            statusName: string;
            tags: string[];
            /** @description signed URL of the card thumbnail (JPEG) */
            thumbnail: string | null;
            titleInSquare: string | null;
            width: number;
        };
        VideoJudgement: {
            /** @description confidence of the whole clip, 0..1 */
            confidence: number;
            /** @description free remakes granted by flagged results so far (owner) */
            judgeRemakes: number;
            /** @description time ranges whose confidence is under 0.5 */
            ranges: {
                /** @description mean confidence inside the range, 0..1 */
                confidence: number;
                /** @description seconds */
                from: number;
                /** @description lost: nobody tracked; gap: lost for 1 s or more; weak: uncertain pose; jump: another person or a tracking swap; pose: impossible pose; flip: the 3D pose upside down */
                reasons: ("lost" | "gap" | "weak" | "jump" | "pose" | "flip")[];
                /** @description seconds */
                to: number;
            }[];
            /** @description coins given back for this result (owner; 0 for others) */
            refundedCoins: number;
            /** @description more than 40 % of the clip weak or confidence under 0.4: the run was refunded */
            unusable: boolean;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
