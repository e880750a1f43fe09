// OpenCV's own stylisations, for the comparison sheet only (scripts/gallery.sh): not product.
// Usage: opencv-styles IN.png PENCIL_OUT.png STYLIZATION_OUT.png
#include <cstdio>
#include <exception>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/photo.hpp>

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s in.png pencil.png stylization.png\n", argv[0]);
        return 2;
    }
    try {
        cv::Mat in = cv::imread(argv[1], cv::IMREAD_COLOR);
        if (in.empty()) throw std::runtime_error("cannot read input");
        cv::Mat grey, colour, styled;
        cv::pencilSketch(in, grey, colour, 60, 0.07f, 0.02f);
        cv::stylization(in, styled, 60, 0.45f);
        cv::imwrite(argv[2], grey);
        cv::imwrite(argv[3], styled);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "opencv-styles: %s\n", e.what());
        return 1;
    }
    return 0;
}
