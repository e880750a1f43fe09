/*
 * CPortrait: OpenCV image operations the sketch styles and the compositor need that libvips
 * has no operation for, behind extern "C". Every function catches every C++ exception and
 * returns 0 on success or -1 with a message in `error` (at most error_size bytes, terminated).
 * Images are packed 8-bit pixels, row-major; outputs are written into caller-owned buffers of
 * the same width and height. Every result is a pure function of the arguments (GrabCut's
 * random generator is seeded on each call); the only state kept between calls is a few
 * graphite texture tiles, each made once and reused by `sk_pencil` (a cache, not an input).
 */
#ifndef SKETCHEASE_CPORTRAIT_H
#define SKETCHEASE_CPORTRAIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* One face in a crop: its box and, when has_landmarks, five landmarks (x, y pairs: eyes
 * image-left then image-right, nose tip, mouth corners image-left then image-right), and
 * how far its head lies beside them (head_shift, in box widths along the eye line, positive
 * towards the image-right eye: a turned head's far cheek, ear and hair; Filters' HeadTurn). */
typedef struct {
    float x, y, width, height;
    float landmarks[10];
    int has_landmarks;
    float head_shift;
} sk_face_seed;

/* What a matte covers. */
enum { SK_REGION_FACE = 0, SK_REGION_HEAD = 1, SK_REGION_PERSON = 2 };

/* The largest image any function here takes or makes, in pixels on each side. */
enum { SK_LARGEST_SIDE = 30000 };

/* The soft alpha matte (0...255) of face `target` among `count` faces in an RGB crop:
 * GrabCut on a copy reduced so the face is about `work_size` pixels across, seeded from the
 * box and landmarks (the other faces' centres are background, which keeps neighbours apart),
 * then enlarged and refined by a guided filter on the full-size crop so hair edges are soft.
 * SK_REGION_PERSON gives the body alone: the cut from the chin down (none where the cut is not
 * trusted); the caller joins it to the head's own SK_REGION_HEAD matte. */
int sk_region_matte(const unsigned char *rgb, int width, int height,
                    const sk_face_seed *faces, int count, int target, int region, float work_size,
                    unsigned char *alpha, char *error, int error_size);

/* The rectangle a face's region matte can at most cover (its outer limit and the fade past
 * it), in the coordinates of the face's box: x0, y0, x1, y1 into `bounds`. */
int sk_region_bounds(const sk_face_seed *face, int region, float *bounds, char *error, int error_size);

/* How much a face's box is shrunk about its landmarks' centre to be the face's own box, as its
 * region's frame is: 1 for a box no larger than its landmarks imply (every detected box) or
 * without landmarks; less for a box enlarged by hand around a face: to the size its landmarks
 * imply. */
float sk_own_scale(const sk_face_seed *face);

/* Coherent lines by the flow-based difference of gaussians (Kang, Lee & Chui 2007) on a grey
 * image: a DoG across the edge tangent flow (structure tensor smoothed over flow_sigma),
 * accumulated along the flow over sigma_m; 255 = paper, darker = ink. sigma_c is the line
 * width, rho the DoG's negative lobe weight (0.9...1), phi the steepness of the soft threshold. */
int sk_flow_lines(const unsigned char *grey, int width, int height, float flow_sigma,
                  float sigma_c, float sigma_m, float rho, float phi,
                  unsigned char *out, char *error, int error_size);

/* The stroke map of Lu, Xu & Jia's pencil drawing (2012): the gradient magnitude of a grey
 * image, each pixel's share given to the one of 8 directions whose line of `length` pixels
 * gathers most gradient there, each share drawn out along its line (`width_px` wide), scaled
 * by the strongest strokes times `gain`. How strong an edge must be to draw, and the strongest
 * strokes, are the faces' own where a skin box is given (a 0 x 0 box: the whole image's).
 * 255 = paper, darker = stroke. */
int sk_pencil_strokes(const unsigned char *grey, int width, int height, float length, float width_px,
                      float gain, int skin_x, int skin_y, int skin_width, int skin_height,
                      unsigned char *out, char *error, int error_size);

/* A pencil tone texture: seeded graphite strokes `length` pixels long and `width_px` wide,
 * slanted about `angle` radians, over a faint paper grain; a middle grey (mean about 0.62)
 * with no pure white or black, so that any tone is a power of it. It wraps around: tiles of
 * it join without a seam. */
int sk_pencil_texture(int width, int height, float length, float width_px, float angle, unsigned seed,
                      unsigned char *out, char *error, int error_size);

/* A drawing's small forms: each spot of its grey against its surroundings at the scale of an
 * eye, so what the tone's scale and the strokes' length pass over (an iris against the white of
 * the eye, nostrils, the line between the lips, teeth) keeps its darks and lights. */
typedef struct {
    float fine;            /* the spot: the grey softened by this (pixels) */
    float sigma;           /* its surroundings: the grey softened by this */
    float floor;           /* differences up to this (0...1) are left alone (skin, noise) */
    float dark;            /* the drawing darkened by this times how much darker (0...1) a spot
                              is than its surroundings past the floor (at most to black) */
    float light;           /* and lightened by this times how much lighter (at most to paper) */
    const float *features; /* each face's five landmarks, x and y in the crop's pixels (eyes, nose
                              tip, mouth corners: 10 floats a face); null: none */
    int feature_faces;     /* how many faces `features` holds */
    float away;            /* the share of the darks laid in away from those faces' eyes and brows,
                              nose and mouth (0...1; 1: everywhere alike); the lights everywhere */
} sk_detail;

/* The pencil drawing of an RGB crop, every size already chosen by the style (PencilFilter):
 * the layers it draws, in the order it draws them. */
typedef struct {
    float grey_sigma;      /* the grey every layer starts from, softened by this */
    float line_sigma;      /* the lines' source, softened further by this */
    float line_scale;      /* lines drawn on a copy reduced by this (<= 1), then enlarged */
    float stroke_length;   /* outline strokes (sk_pencil_strokes), in the reduced copy's pixels */
    float stroke_width;
    float stroke_gain;
    float skin_x, skin_y, skin_width, skin_height; /* the faces (crop pixels): their own gradients
                                  set how strong an edge must be to draw; 0 x 0 = the whole crop's */
    float contour_scale;   /* fine contours (flow lines) drawn on the lines' copy reduced again by
                              this (<= 1), then enlarged to it */
    float flow_sigma;      /* fine contours, in the pixels of their copy */
    float contour_sigma;
    float flow_length;
    float edges;           /* share of the contour layer (0...1) */
    sk_detail detail;      /* the small forms' darks and lights */
    float tone_sigma;      /* the tone's source, softened by this */
    const unsigned char *tone_table; /* 256 entries: softened grey level -> tone (255 = paper) */
    float cross_below;     /* tones below this (0...1) are hatched twice, the second layer across */
    float stroke_share;    /* how much more of the tone is strokes rather than smudge: 0 as sk_pencil
                              shares them, 1 all strokes */
    float hatch_length;    /* graphite strokes of the first layer; the second is 0.8 as long */
    float hatch_width;
    float hatch_angle;     /* radians, first layer; `cross_angle` the second */
    float cross_angle;
    float hatch_follow;    /* how far the hatching turns along the forms' isophotes: the forms weigh
                              this many times the fixed angles' for the face's mean shading
                              (0 = every stroke at the fixed angles) */
    float form_size;       /* the face's size in the crop's pixels: the scale of the forms followed */
    unsigned seed;         /* picks the face's window of the shared textures */
    float grain_size;      /* paper grain: softening of the noise (pixels) */
    float grain_strength;  /* how far the grain darkens the paper (0.97 - strength x grain) */
    const unsigned char *noise; /* a square tile of 8-bit noise, 128 + 30 x N(0, 1) */
    int noise_side;
    int noise_x, noise_y;  /* the face's window in it */
    int origin_x, origin_y; /* where the crop's corner lies on the canvas the textures are laid
                               on (>= 0): a part of a picture gets the strokes and grain the whole
                               would have there */
} sk_pencil_plan;

/* The whole pencil drawing of a packed RGB image in one call: outlines (the stroke map) and
 * fine contours on a reduced copy, the grey on a pencil's tone scale hatched in with two layers
 * of graphite texture, paper grain. Writes grey RGB (width x height x 3) into `out`. */
int sk_pencil(const unsigned char *rgb, int width, int height, const sk_pencil_plan *plan,
              unsigned char *out, char *error, int error_size);

/* Graphite after Lu, Xu & Jia (2012) on an RGB crop, every size already chosen by the style
 * (GraphiteFilter). */
typedef struct {
    float grey_sigma;      /* the grey every layer starts from, softened by this */
    float line_sigma;      /* the strokes' source, softened further by this */
    float stroke_length, stroke_width, stroke_gain; /* the stroke map (sk_pencil_strokes) */
    float tone_sigma;      /* the tone's source, softened by this */
    const double *tone_cdf; /* 256 rising shares: the pencil tones' cumulative distribution */
    const sk_face_seed *faces; /* whose tones are matched and whose edges set the strokes */
    int face_count;
    float texture_length, texture_width, texture_angle; /* the graphite texture (radians) */
    unsigned seed;         /* picks the face's window of the texture */
    float reach;           /* how smoothly the texture's power follows the tone */
    sk_detail detail;      /* the small forms' darks and lights */
    int origin_x, origin_y; /* where the crop's corner lies on the canvas (>= 0) */
} sk_graphite_plan;

/* The whole graphite drawing of a packed RGB image in one call: the stroke map times the tone
 * laid in with a graphite texture. Writes grey RGB into `out`. */
int sk_graphite(const unsigned char *rgb, int width, int height, const sk_graphite_plan *plan,
                unsigned char *out, char *error, int error_size);

/* The relief carving of an RGB crop, every size already chosen by the style (ReliefFilter). */
typedef struct {
    float face_size;       /* the face's size in the crop's pixels */
    float depth;           /* how deep the carving is (0.3...8) */
    float smoothing;       /* the height field's luminance, softened by this */
    float broad_sigma;     /* its broad changes (halved), over this */
    float azimuth, elevation; /* the light, radians */
    int harmonics;         /* 1: matte clay in spherical-harmonics light; 0: polished, Blinn-Phong */
    float material[3];     /* the surface's colour (0...1), already scaled by 1 - tint */
    float tint;            /* the photo's colours mixed in (0...1) */
    const sk_face_seed *faces; /* the heads that get a dome */
    int face_count;
    int origin_x, origin_y; /* where the crop's corner lies on the canvas (>= 0) */
} sk_relief_plan;

/* The whole relief of a packed RGB image in one call: a height field of luminance detail and
 * head domes, its normals lit with cast shadows and a highlight, or with wrapped light and
 * occlusion. Writes RGB into `out`. */
int sk_relief(const unsigned char *rgb, int width, int height, const sk_relief_plan *plan,
              unsigned char *out, char *error, int error_size);

/* The privacy blur of an RGB crop (BlurFilter): a gaussian blur of `sigma` pixels, above 6 pixels
 * on a copy shrunk by blocks laid from the canvas's corner (origin_x, origin_y >= 0), blurred a
 * few pixels and enlarged, as the styles' broad blur is made. */
typedef struct {
    float sigma;
    int origin_x, origin_y;
} sk_blur_plan;

int sk_blur(const unsigned char *rgb, int width, int height, const sk_blur_plan *plan,
            unsigned char *out, char *error, int error_size);

/* The charcoal drawing of an RGB crop, every size already chosen by the style (CharcoalFilter). */
typedef struct {
    float grey_sigma;      /* the grey every layer starts from, softened by this */
    float flow_sigma;      /* strokes: flow lines (sk_flow_lines) along a flow smoothed this much, */
    float stroke_sigma;    /* as wide as the stick, */
    float flow_length;     /* followed this far, */
    float stroke_soften;   /* then softened by this */
    float broad_sigma;     /* the tone: a broad smudge of the grey (55 %) */
    float near_sigma;      /* and a nearer one (45 %), */
    float mottle_size;     /* mottled by smooth noise with blobs about this wide */
    float coarse_grain;    /* the paper's tooth: grain softened by this, */
    float fine_grain;      /* and finer grain, softened by this */
    float contrast;        /* steepness of the tones and boost of the strokes (0.5...3) */
    float shading;         /* how strongly the tones are filled in (0...1) */
    float grain;           /* how much of the tooth shows (0...1) */
    const unsigned char *noise; /* the square tile of 8-bit noise, 128 + 30 x N(0, 1) */
    int noise_side;
    int noise_x[3], noise_y[3]; /* the face's points in it: mottle, coarse grain, fine grain */
    sk_detail detail;      /* the small forms' darks and lights */
    int origin_x, origin_y; /* where the crop's corner lies on the canvas (>= 0) */
} sk_charcoal_plan;

/* The whole charcoal drawing of a packed RGB image in one call: strokes along the flow, the
 * grey smudged and mottled on a steep curve, the paper's tooth. Writes grey RGB into `out`. */
int sk_charcoal(const unsigned char *rgb, int width, int height, const sk_charcoal_plan *plan,
                unsigned char *out, char *error, int error_size);

/* The pen-and-ink drawing of an RGB crop, every size already chosen by the style (InkFilter). */
typedef struct {
    float grey_sigma;      /* the lines' grey, softened by this */
    float flow_sigma;      /* lines: flow lines (sk_flow_lines) along a flow smoothed this much, */
    float line_sigma;      /* this wide, */
    float flow_length;     /* followed this far, */
    float rho, phi;        /* with this negative lobe and steepness, */
    float line_edge;       /* then a ramp to pure ink about this level (lower keeps only the cores) */
    float tone_sigma;      /* the tone the pen hatches, softened by this */
    float threshold;       /* lightness (0...1) below which the pen hatches */
    float wash;            /* how much of the shadows it fills (0...1) */
    float small;           /* how small the face is (0...1): fewer, bolder marks */
    float spacing;         /* pixels between strokes */
    const unsigned char *noise; /* the square tile of 8-bit noise, 128 + 30 x N(0, 1) */
    int noise_side;
    int noise_x, noise_y;  /* the face's point in it: the hand's drift and swell */
    int origin_x, origin_y; /* where the crop's corner lies on the canvas (>= 0) */
} sk_ink_plan;

/* The whole pen-and-ink drawing of a packed RGB image in one call: crisp lines along the flow,
 * the shadows hatched, cross-hatched and filled as they deepen. Writes grey RGB into `out`. */
int sk_ink(const unsigned char *rgb, int width, int height, const sk_ink_plan *plan, unsigned char *out,
           char *error, int error_size);

/* The cartoon of an RGB crop, every size already chosen by the style (CartoonFilter). */
typedef struct {
    float scale;           /* the flattening runs on a copy reduced by this (<= 1) */
    float reach;           /* its bilateral filters' spatial sigma, in the reduced copy's pixels */
    float lightness_sigma; /* CIELAB lightness softened by this before banding */
    float chroma_sigma;    /* a* and b* softened by this */
    int levels;            /* lightness bands */
    float saturation;      /* a* and b* scaled by this */
    float outline;         /* > 0: outlines drawn (flow lines with the sizes below) */
    float flow_sigma, line_sigma, flow_length, rho;
} sk_cartoon_plan;

/* The whole cartoon of a packed RGB image in one call: flattened by bilateral filters, its
 * lightness banded, its colours smoothed and boosted, outlined along the flow. Writes RGB. */
int sk_cartoon(const unsigned char *rgb, int width, int height, const sk_cartoon_plan *plan,
               unsigned char *out, char *error, int error_size);

/* The engraver's hatching of an RGB crop, every size already chosen by the style (HatchingFilter). */
typedef struct {
    float face_size;       /* the face's size in the crop's pixels */
    float grey_sigma;      /* the grey every layer starts from, softened by this */
    float spacing;         /* pixels between lines */
    float sparse;          /* 0 when the face has room for 30 lines across, 1 at 16 or fewer */
    float broad_sigma;     /* the tone's broad relief (subtracted in part, and bent over) */
    float lightness;       /* shifts tones before hatching (-0.15...0.15) */
    float bend;            /* how much the lines curve over the form (0...0.6) */
    float angle;           /* the first set's direction, degrees */
    int layers;            /* crossing sets of lines (0...3) */
    float outline;         /* strength of the pen outline (0 = none) */
    float flow_sigma, line_sigma, flow_length; /* the outline's flow lines (sk_flow_lines) */
    const sk_face_seed *faces; /* the heads the lines bend over (crop pixels) */
    int face_count;
    int origin_x, origin_y; /* where the crop's corner lies on the canvas (>= 0) */
} sk_hatching_plan;

/* The whole hatching of a packed RGB image in one call: parallel lines at an even spacing bent
 * over domes on the heads and the photo's broad relief, as wide as the tone asks, crossed in the
 * shadows, with a fine outline. Writes grey RGB into `out`. */
int sk_hatching(const unsigned char *rgb, int width, int height, const sk_hatching_plan *plan,
                unsigned char *out, char *error, int error_size);

/* The paper grain the drawings lay (float, unit deviation, width x height into `out`): the
 * noise tile's window at (noise_x, noise_y), moved by where the crop's corner lies on the canvas,
 * softened by grain_size; above 4 pixels, smooth noise with blobs about that wide, from a coarse
 * grid laid from the canvas's corner. */
int sk_paper_grain(const unsigned char *noise, int noise_side, int noise_x, int noise_y, int origin_x,
                   int origin_y, float grain_size, int width, int height, float *out, char *error,
                   int error_size);

/* A drawing's lightness set, area by area, to a photo's (both packed RGB, the same size): the
 * drawing scaled so that its local mean lightness (CIELAB, over a gaussian window `reach`
 * pixels wide) is the photo's there, the lights lifted `paper_lift` of the way to white where the
 * drawing is grey (chroma under `paper_chroma`). Where a grey drawing is darkened (a gain g under
 * 1), its own contrast about its local mean is raised to the power 1 + `shadow_contrast` (1 - g),
 * so its lines and strokes stay as legible as drawn (0: scaled with it). The photo is taken as if
 * exposed `exposure` times as long (its luminance times that, 1: as it is; an under-exposed
 * picture's drawing is made at a normal exposure). With `region` (8-bit, width x height: the
 * matte the drawing is laid in through), the exposure rises from none at the region's edge
 * (where the matte is half) to all of it `region_ramp` pixels inside, so the drawing meets the
 * photo at the photo's own lightness; NULL (or a ramp of 0): all of it everywhere. `own_tone`
 * (0...1): how much of the drawing's own lightness is kept inside the region, rising over the
 * same ramp from none at its edge (0: matched everywhere; 1: as drawn from the ramp's end in; a
 * carving's one material). Writes RGB into `out`. */
int sk_tone_match(const unsigned char *drawing, const unsigned char *photo, int width, int height,
                  float reach, float paper_lift, float paper_chroma, float shadow_contrast, float exposure,
                  const unsigned char *region, float region_ramp, float own_tone, unsigned char *out, char *error,
                  int error_size);

/* `in` (packed 8-bit, `bands` 1 to 4, width x height) resampled to out_width x out_height into
 * `out`: reduced by area (each pixel the mean of what it covers), enlarged bicubic; pixel
 * centres aligned. A face's crop on its way to the size its style draws at, and back. */
int sk_resample(const unsigned char *in, int width, int height, int bands, int out_width, int out_height,
                unsigned char *out, char *error, int error_size);

/* `matte` (one band, width x height) scaled by scale_x, scale_y with its top-left corner at
 * (corner_x, corner_y) of an out_width x out_height canvas, sampled bilinearly at the canvas
 * pixels' centres (the matte's edge pixels extended to its footprint's edge) into `out`; 0
 * outside the footprint, which goes on `beyond` its left, top, right and bottom sides (four
 * widths in matte pixels, 0 for none) with the matte's edge there. A face's matte carried to
 * where its face is on a later frame. */
int sk_matte_place(const unsigned char *matte, int width, int height, double scale_x, double scale_y,
                   double corner_x, double corner_y, int out_width, int out_height, const double *beyond,
                   unsigned char *out, char *error, int error_size);

/* `top` (`bands` 1 to 4, width x height) laid over `base` (base_width pixels a row, the same
 * bands) with its top-left corner at (x, y), through `mask` (one band, width x height; 0 keeps
 * `base`, 255 takes `top`): each byte (a t + (255 - a) b + 128) / 255, in place in `base`. */
int sk_blend_through(const unsigned char *top, const unsigned char *mask, int width, int height, int bands,
                     unsigned char *base, int base_width, int x, int y, char *error, int error_size);

/* Before a grey drawing is laid over `base` (3 bands, base_width pixels a row) at (x, y) through
 * `mask` (`top` and `mask` width x height, as sk_blend_through takes them): where the mask's soft
 * edge lets the picture through under a grey pixel of `top`, the picture's colour is faded to its
 * grey, wholly from mask 0.35 in, if it has the hue of the head (the mean CIELAB hue of the
 * picture where the mask is whole: skin, and what has its hue, as lips, a red collar) and not
 * from 20 degrees of hue away to 35: the backdrop beside a head keeps its colour. In place. */
int sk_grey_fringe(const unsigned char *top, const unsigned char *mask, int width, int height, unsigned char *base,
                   int base_width, int x, int y, char *error, int error_size);

/* A carried drawing laid over `picture` (picture_width x picture_height, `bands` a pixel) with
 * its top-left corner at (x, y), in place; what falls outside the picture is left out.
 * `drawing` and `photo` are the part as drawn and as it was, `mask` (one band) the faces'
 * region, all width x height: where the mask is 0 the picture stays; 255 takes the drawing; in
 * between, the drawing plus (255 - a) / 255 of the picture's change since (picture - photo),
 * rounded half away from zero and clamped. */
int sk_lay_carried(const unsigned char *drawing, const unsigned char *photo, const unsigned char *mask, int width, int height,
                   int bands, unsigned char *picture, int picture_width, int picture_height, int x, int y, char *error,
                   int error_size);

/* The widest vector instructions the drawings may use where the processor has them: 0 none,
 * 1 AVX2, 2 AVX-512 as well (the default). Every way draws the same bytes; for tests and
 * timing. Returns the level now used (at most the one asked for, as far as the processor
 * goes). */
int sk_use_vector_instructions(int level);

#ifdef __cplusplus
}
#endif

#endif
